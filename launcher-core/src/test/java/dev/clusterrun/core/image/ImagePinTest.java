package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.image.FakeRegistry.Reply;
import dev.clusterrun.core.spec.ImageRef;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's image pinned to one digest: the registry's answer, asked once; the reference's newest
 * cached import when the registry cannot be reached; one line and the fix when it refuses.
 */
class ImagePinTest {
  static final String V2 = "application/vnd.docker.distribution.manifest.v2+json";
  static final String A = "sha256:" + "a".repeat(64);
  static final String B = "sha256:" + "b".repeat(64);
  static final String MANIFEST =
      "{\"schemaVersion\":2,\"mediaType\":\"" + V2 + "\",\"config\":{},\"layers\":[]}";

  @TempDir Path tmp;
  FakeRegistry registry;

  @BeforeEach
  void start() throws IOException {
    registry = new FakeRegistry();
  }

  @AfterEach
  void stop() {
    registry.close();
  }

  RegistrySettings settings() {
    return new RegistrySettings(
        true, tmp.resolve(".credentials"), "amd64", Map.of(), null, null, Duration.ofSeconds(5));
  }

  ImagePin pin(String image) {
    return ImagePin.of(ImageRef.parse(image), tmp.resolve("ws").toString());
  }

  @Test
  void theTagIsPinnedToTheRegistrysDigestAskedOnceWhoeverAsks() throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    registry.on(
        "/v2/lab/mpi/manifests/1",
        r -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Reply.json(MANIFEST, V2, A);
        });
    ImagePin p = pin(registry.registry() + "#lab/mpi:1");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<ImagePin.Outcome> one = pool.submit(() -> p.resolve(settings()));
      Future<ImagePin.Outcome> two = pool.submit(() -> p.resolve(settings()));
      go.countDown();
      assertThat(one.get()).isSameAs(two.get());
    } finally {
      pool.shutdownNow();
    }
    ImagePin.Outcome o = p.outcome();
    assertThat(o.ok()).isTrue();
    assertThat(o.pinned().digest()).isEqualTo(A);
    assertThat(o.pinned().uri()).isEqualTo("docker://" + registry.registry() + "#lab/mpi:1@" + A);
    assertThat(o.pinned().warning()).isNull();
    assertThat(registry.requests).hasSize(1);
  }

  @Test
  void aReferencePinnedByDigestIsUsedAsGivenWithoutARequest() {
    ImagePin p = pin(registry.registry() + "#lab/mpi@" + B);
    ImagePin.Outcome o = p.resolve(settings());
    assertThat(o.pinned().digest()).isEqualTo(B);
    assertThat(o.pinned().uri()).isEqualTo("docker://" + registry.registry() + "#lab/mpi@" + B);
    assertThat(registry.requests).isEmpty();
  }

  @Test
  void onlyRegistryImagesArePinned() {
    assertThat(ImagePin.of(ImageRef.parse("./image.sqsh"), null)).isNull();
    assertThat(ImagePin.of(ImageRef.parse("dockerd://local/img:1"), null)).isNull();
    assertThat(ImagePin.of(null, null)).isNull();
  }

  @Test
  void anUnreachableRegistryRunsTheNewestCachedImportOfTheReferenceSayingItsAge() throws Exception {
    String host = "127.0.0.1:" + closedPort();
    ImagePin p = pin(host + "#lab/mpi:1");
    ImageCache cache = ImageCache.inWorkspace(tmp.resolve("ws"));
    cache.acquire(A, p.canonical(), f -> Files.writeString(f, "old"), (ref, d) -> {});
    ImagePin.Outcome o = p.resolve(settings());
    assertThat(o.ok()).isTrue();
    assertThat(o.pinned().digest()).isEqualTo(A);
    assertThat(o.pinned().warning())
        .contains(host, "lab/mpi", "newest cached import", "imported", " ago", A);
  }

  @Test
  void aProxyNobodyListensOnMakesTheRegistryUnreachable() throws Exception {
    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.json(MANIFEST, V2, A));
    RegistrySettings viaProxy =
        new RegistrySettings(
            true,
            tmp.resolve(".credentials"),
            "amd64",
            Map.of("http_proxy", "http://127.0.0.1:" + closedPort()),
            null,
            null,
            Duration.ofSeconds(5));
    ImagePin.Outcome o = pin(registry.registry() + "#lab/mpi:1").resolve(viaProxy);
    assertThat(o.ok()).as("%s", o).isFalse();
    assertThat(registry.requests).isEmpty();
  }

  @Test
  void anUnreachableRegistryWithNothingCachedIsAProblemNamingRegistryRepositoryAndError()
      throws Exception {
    String host = "127.0.0.1:" + closedPort();
    ImagePin.Outcome o = pin(host + "#lab/mpi:1").resolve(settings());
    assertThat(o.ok()).isFalse();
    assertThat(o.problem()).contains(host, "lab/mpi").doesNotContain("\n");
    assertThat(o.fix()).contains("no import of", "is cached");
  }

  @Test
  void aRegistryAskingForCredentialsTheFileLacksNamesTheFileAndTheLinesToAdd() {
    registry.on("/v2/lab/private/manifests/1", r -> Reply.challenge("Basic realm=\"registry\""));
    ImagePin.Outcome o = pin(registry.registry() + "#lab/private:1").resolve(settings());
    assertThat(o.ok()).isFalse();
    assertThat(o.problem()).contains("401", "lab/private").doesNotContain("\n");
    assertThat(o.fix()).contains(tmp.resolve(".credentials").toString(), "machine 127.0.0.1 login");
  }

  @Test
  void aMissingTagSaysSo() {
    ImagePin.Outcome o = pin(registry.registry() + "#lab/mpi:nope").resolve(settings());
    assertThat(o.ok()).isFalse();
    assertThat(o.problem()).contains("404", "lab/mpi", "nope");
  }

  @Test
  void agesAreSaidAsPeopleSayThem() {
    assertThat(ImagePin.age(Duration.ofSeconds(42))).isEqualTo("42 s");
    assertThat(ImagePin.age(Duration.ofMinutes(12))).isEqualTo("12 min");
    assertThat(ImagePin.age(Duration.ofHours(5))).isEqualTo("5 h");
    assertThat(ImagePin.age(Duration.ofDays(3))).isEqualTo("3 days");
  }

  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
