package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.image.ImageCache.Entry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image cache on real files, with real locks between threads and between processes: one import
 * per digest, leases that protect what running jobs use (and stale ones that do not), eviction by
 * last use, prune, and records that survive damage.
 */
class ImageCacheTest {
  /** The cache's clock, for the tests that move time. */
  private final TestClock clock = new TestClock();

  /** How many times an import ran. */
  private final AtomicInteger calls = new AtomicInteger();

  static final String A = digest('a');
  static final String B = digest('b');
  static final String C = digest('c');
  static final String D = digest('d');

  static String digest(char c) {
    return "sha256:" + String.valueOf(c).repeat(64);
  }

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }
  }

  /** An importer that writes {@code size} bytes and counts its calls. */
  static ImageCache.Importer writing(int size, AtomicInteger calls) {
    return tmp -> {
      calls.incrementAndGet();
      Files.write(tmp, new byte[size]);
    };
  }

  static final ImageCache.Listener QUIET = (ref, digest) -> {};

  @Test
  void twoThreadsAskingForOneNewDigestImportItOnceAndTheWaiterIsTold(@TempDir Path dir)
      throws Exception {
    ImageCache cache = new ImageCache(dir, Clock.systemUTC());
    CountDownLatch importing = new CountDownLatch(1);
    CountDownLatch told = new CountDownLatch(1);
    List<String> waits = new CopyOnWriteArrayList<>();
    ImageCache.Importer slow =
        tmp -> {
          calls.incrementAndGet();
          importing.countDown();
          // The other thread asks meanwhile; the import ends only once it was told to wait.
          assertThat(told.await(30, TimeUnit.SECONDS)).isTrue();
          Files.write(tmp, new byte[1000]);
        };
    ImageCache.Listener listener =
        (ref, digest) -> {
          waits.add(ref + " " + digest);
          told.countDown();
        };
    List<Entry> got = new CopyOnWriteArrayList<>();
    List<Throwable> failed = new CopyOnWriteArrayList<>();
    Thread first =
        thread(() -> got.add(cache.acquire(A, "docker://app:main", slow, listener)), failed);
    first.start();
    assertThat(importing.await(30, TimeUnit.SECONDS)).isTrue();
    Thread second =
        thread(() -> got.add(cache.acquire(A, "docker://app:v2", slow, listener)), failed);
    second.start();
    first.join(30_000);
    second.join(30_000);
    assertThat(failed).isEmpty();
    assertThat(calls).hasValue(1);
    assertThat(waits).containsExactly("docker://app:v2 " + A);
    assertThat(got).hasSize(2).extracting(Entry::file).containsOnly(cache.pathFor(A));
    assertThat(cache.list())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.references()).containsExactly("docker://app:main", "docker://app:v2");
              assertThat(e.size()).isEqualTo(1000);
            });
    // Nothing but the image, its record and the lock folder: no part left over.
    assertThat(names(dir))
        .containsExactlyInAnyOrder(
            ".locks", "sha256-" + "a".repeat(64) + ".json", "sha256-" + "a".repeat(64) + ".sqsh");
  }

  interface Body {
    void run() throws Exception;
  }

  static Thread thread(Body body, List<Throwable> failed) {
    return new Thread(
        () -> {
          try {
            body.run();
          } catch (Throwable t) {
            failed.add(t);
          }
        });
  }

  @Test
  void twoProcessesAskingForOneNewDigestImportItOnceAndTheWaiterIsTold(@TempDir Path tmp)
      throws Exception {
    Path dir = tmp.resolve("images");
    Path counter = tmp.resolve("imports.txt");
    Path release = tmp.resolve("release");
    Child one = Child.start("import", dir, A, "docker://app:main", counter, release);
    Child two = null;
    try {
      assertThat(one.line()).isEqualTo("importing");
      two = Child.start("import", dir, A, "docker://app:main", counter, release);
      assertThat(two.line()).isEqualTo("waiting");
      Files.writeString(release, "");
      assertThat(one.line()).isEqualTo("done " + dir.resolve("sha256-" + "a".repeat(64) + ".sqsh"));
      assertThat(two.line()).isEqualTo("done " + dir.resolve("sha256-" + "a".repeat(64) + ".sqsh"));
      assertThat(one.exit()).isZero();
      assertThat(two.exit()).isZero();
    } finally {
      one.kill();
      if (two != null) {
        two.kill();
      }
    }
    assertThat(Files.readAllLines(counter)).containsExactly("import");
    assertThat(new ImageCache(dir, Clock.systemUTC()).list())
        .singleElement()
        .satisfies(e -> assertThat(e.size()).isEqualTo(4096));
  }

  @Test
  void evictionRemovesTheLeastRecentlyUsedAndNeverALeasedOne(@TempDir Path dir) throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    for (String d : List.of(A, B, C, D)) {
      cache.acquire(d, "docker://img-" + d.charAt(7), writing(100, calls), QUIET);
      clock.advance(Duration.ofHours(1));
    }
    // A is the least recently used, but another process runs a job on it.
    Child holder = Child.start("lease", dir, A, "run-a");
    try {
      assertThat(holder.line()).isEqualTo("leased");
      List<Entry> told = new ArrayList<>();
      ImageCache.Listener listener =
          new ImageCache.Listener() {
            @Override
            public void waiting(String reference, String digest) {}

            @Override
            public void evicted(Entry e) {
              told.add(e);
            }
          };
      List<Entry> removed = cache.evict(250, listener);
      assertThat(removed).extracting(Entry::digest).containsExactly(B, C);
      assertThat(told).isEqualTo(removed);
      assertThat(cache.list()).extracting(Entry::digest).containsExactly(D, A);
      assertThat(cache.list())
          .filteredOn(Entry::inUse)
          .extracting(Entry::digest)
          .containsExactly(A);
      // Under the limit: nothing goes.
      assertThat(cache.evict(250, listener)).isEmpty();
      holder.closeInput();
      assertThat(holder.line()).isEqualTo("released");
      assertThat(holder.exit()).isZero();
    } finally {
      holder.kill();
    }
    // The lease ended: A is free, and was used at its end (now), so D is older.
    assertThat(cache.evict(100, listener())).extracting(Entry::digest).containsExactly(D);
    assertThat(cache.list()).extracting(Entry::digest).containsExactly(A);
  }

  static ImageCache.Listener listener() {
    return QUIET;
  }

  @Test
  void aLeaseInThisProcessProtectsUntilClosedAndMarksTheImageUsed(@TempDir Path dir)
      throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    try (ImageCache.Lease lease = cache.lease(A, "run-1")) {
      // Taken before the import, as a run does it.
      cache.acquire(A, "docker://app:main", writing(10, new AtomicInteger()), QUIET);
      assertThat(cache.evict(0, QUIET)).isEmpty();
      assertThat(cache.prune(null, true).kept()).extracting(Entry::digest).containsExactly(A);
      assertThat(cache.list()).singleElement().satisfies(e -> assertThat(e.inUse()).isTrue());
      clock.advance(Duration.ofDays(3));
    }
    Entry e = cache.list().get(0);
    assertThat(e.inUse()).isFalse();
    assertThat(e.lastUsed()).isEqualTo(clock.now);
    assertThat(e.imported()).isEqualTo(clock.now.minus(Duration.ofDays(3)));
    assertThat(cache.evict(0, QUIET)).extracting(Entry::digest).containsExactly(A);
    assertThat(cache.list()).isEmpty();
  }

  @Test
  void theLeaseOfARunThatDiedProtectsNothing(@TempDir Path dir) throws Exception {
    ImageCache cache = new ImageCache(dir, Clock.systemUTC());
    cache.acquire(A, "docker://app:main", writing(10, new AtomicInteger()), QUIET);
    Child holder = Child.start("lease", dir, A, "run-killed");
    assertThat(holder.line()).isEqualTo("leased");
    assertThat(cache.list().get(0).inUse()).isTrue();
    holder.process.destroyForcibly().waitFor();
    Path lease =
        dir.resolve(".leases").resolve("sha256-" + "a".repeat(64)).resolve("run-killed.lease");
    assertThat(lease).exists();
    assertThat(cache.list().get(0).inUse()).isFalse();
    assertThat(lease).doesNotExist();
    assertThat(cache.evict(0, QUIET)).extracting(Entry::digest).containsExactly(A);
  }

  @Test
  void pruneRemovesWhatWasNotUsedWithinTheAgeOrEverythingButWhatRuns(@TempDir Path dir)
      throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    cache.acquire(A, "docker://old", writing(10, calls), QUIET);
    clock.advance(Duration.ofDays(10));
    cache.acquire(B, "docker://recent", writing(10, calls), QUIET);
    clock.advance(Duration.ofDays(1));
    ImageCache.Pruned p = cache.prune(Duration.ofDays(7), false);
    assertThat(p.removed()).extracting(Entry::digest).containsExactly(A);
    assertThat(p.kept()).isEmpty();
    assertThat(cache.pathFor(A)).doesNotExist();
    cache.acquire(C, "docker://running", writing(10, calls), QUIET);
    try (ImageCache.Lease l = cache.lease(C, "run-c")) {
      ImageCache.Pruned all = cache.prune(null, true);
      assertThat(all.removed()).extracting(Entry::digest).containsExactly(B);
      assertThat(all.kept()).extracting(Entry::digest).containsExactly(C);
    }
    assertThat(cache.prune(null, true).removed()).extracting(Entry::digest).containsExactly(C);
    assertThat(cache.list()).isEmpty();
    assertThatThrownBy(() -> cache.prune(null, false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void listShowsImportsFromBeforeDigestsNewestFirstAndPruneRemovesThem(@TempDir Path dir)
      throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    Files.createDirectories(dir);
    Path old = dir.resolve("docker+++app+main-0123456789ab.sqsh");
    Files.write(old, new byte[50]);
    Files.writeString(dir.resolve(old.getFileName() + ".uri"), "docker://app:main\n");
    Files.setLastModifiedTime(
        old, java.nio.file.attribute.FileTime.from(clock.now.minus(Duration.ofDays(30))));
    cache.acquire(A, "docker://app:main", writing(20, new AtomicInteger()), QUIET);
    List<Entry> list = cache.list();
    assertThat(list).extracting(Entry::digest).containsExactly(A, null);
    Entry legacy = list.get(1);
    assertThat(legacy.isLegacy()).isTrue();
    assertThat(legacy.references()).containsExactly("docker://app:main");
    assertThat(legacy.size()).isEqualTo(50);
    // The offline fallback only offers imports by digest.
    assertThat(cache.newestFor("docker://app:main")).get().extracting(Entry::digest).isEqualTo(A);
    assertThat(cache.prune(Duration.ofDays(7), false).removed()).containsExactly(legacy);
    assertThat(old).doesNotExist();
    assertThat(dir.resolve(old.getFileName() + ".uri")).doesNotExist();
  }

  @Test
  void newestForIsTheLatestImportOfThatReference(@TempDir Path dir) throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    cache.acquire(A, "docker://app:main", writing(10, calls), QUIET);
    clock.advance(Duration.ofHours(2));
    cache.acquire(B, "docker://app:main", writing(10, calls), QUIET);
    clock.advance(Duration.ofHours(1));
    cache.acquire(A, "docker://app:main", writing(10, calls), QUIET); // used again, not imported
    assertThat(calls).hasValue(2);
    assertThat(cache.newestFor("docker://app:main")).get().extracting(Entry::digest).isEqualTo(B);
    assertThat(cache.newestFor("docker://other:1")).isEmpty();
  }

  @Test
  void aFailedImportLeavesNothingAndTheNextRunImportsAgain(@TempDir Path dir) throws Exception {
    ImageCache cache = new ImageCache(dir, Clock.systemUTC());
    assertThatThrownBy(
            () ->
                cache.acquire(
                    A,
                    "docker://app:main",
                    tmp -> {
                      Files.write(tmp, new byte[7]); // half written
                      throw new ImageCache.ImportFailed("enroot import exited 1");
                    },
                    QUIET))
        .isInstanceOf(ImageCache.ImportFailed.class)
        .hasMessage("enroot import exited 1");
    assertThat(names(dir)).containsExactly(".locks");
    cache.acquire(A, "docker://app:main", writing(10, calls), QUIET);
    assertThat(calls).hasValue(1);
    assertThatThrownBy(() -> cache.pathFor("sha256:ABC"))
        .hasMessage("'sha256:ABC' is not a manifest digest (sha256: and 64 lower-case hex digits)");
    assertThatThrownBy(() -> cache.lease(A, "../x")).hasMessage("'../x' is not a run id");
  }

  @Test
  void aDamagedRecordIsAProblemToShowAndTheNextAcquireRewritesIt(@TempDir Path dir)
      throws Exception {
    ImageCache cache = new ImageCache(dir, clock);
    cache.acquire(A, "docker://app:main", writing(10, calls), QUIET);
    Path record = dir.resolve("sha256-" + "a".repeat(64) + ".json");
    String written = Files.readString(record);
    assertThat(written)
        .contains("\"digest\" : \"" + A + "\"", "\"references\" : [ \"docker://app:main\" ]")
        .contains("\"size\" : 10", "\"imported\" : \"2026-01-01T00:00:00Z\"");
    Files.writeString(record, "{\"digest\": \"sha256:");
    Entry e = cache.list().get(0);
    assertThat(e.problem())
        .startsWith(record + ": not JSON (")
        .endsWith("; the image is taken from its file (" + cache.pathFor(A) + ")");
    assertThat(e.size()).isEqualTo(10);
    assertThat(e.references()).isEmpty();
    Files.writeString(record, written.replace(A, B));
    assertThat(cache.list().get(0).problem()).startsWith(record + ": holds the record of " + B);
    clock.advance(Duration.ofMinutes(5));
    cache.acquire(A, "docker://app:v2", writing(10, calls), QUIET);
    assertThat(calls).hasValue(1);
    Entry repaired = cache.list().get(0);
    assertThat(repaired.problem()).isNull();
    assertThat(repaired.references()).containsExactly("docker://app:v2");
    // Written atomically: no temporary file stays beside it.
    assertThat(names(dir)).allMatch(n -> !n.endsWith(".tmp"));
  }

  static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  /** A {@link CacheChild} JVM and its output lines. */
  static final class Child {
    final Process process;
    final BufferedReader out;

    private Child(Process process) {
      this.process = process;
      this.out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static Child start(String mode, Path dir, String... args) throws Exception {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xshare:auto");
      cmd.add("-XX:TieredStopAtLevel=1");
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(CacheChild.class.getName());
      cmd.add(mode);
      cmd.add(dir.toString());
      for (String a : args) {
        cmd.add(a);
      }
      return new Child(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    static Child start(String mode, Path dir, String digest, String ref, Path counter, Path release)
        throws Exception {
      return start(mode, dir, digest, ref, counter.toString(), release.toString());
    }

    String line() throws Exception {
      String l = out.readLine();
      return l == null ? "(ended with " + process.waitFor() + ")" : l;
    }

    void closeInput() throws Exception {
      process.getOutputStream().close();
    }

    int exit() throws Exception {
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      return process.exitValue();
    }

    void kill() throws Exception {
      process.destroyForcibly().waitFor();
    }
  }
}
