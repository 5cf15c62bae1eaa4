package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clusterrun.core.image.FakeRegistry.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against a registry and a token service over real HTTP on loopback addresses. */
class RegistryClientTest {
  static final String V2 = "application/vnd.docker.distribution.manifest.v2+json";
  static final String LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
  static final String OCI = "application/vnd.oci.image.manifest.v1+json";
  static final String INDEX = "application/vnd.oci.image.index.v1+json";
  static final String A = "sha256:" + "a".repeat(64);
  static final String B = "sha256:" + "b".repeat(64);
  static final String C = "sha256:" + "c".repeat(64);
  static final String SECRET = "s3cr3t-Pa55word";
  static final String TOKEN = "tok-9f8e7d";

  @TempDir Path tmp;
  FakeRegistry registry;
  Path credentials;

  @BeforeEach
  void start() throws IOException {
    registry = new FakeRegistry();
    credentials = tmp.resolve(".credentials");
  }

  @AfterEach
  void stop() {
    registry.close();
  }

  RegistrySettings settings(boolean allowHttp, String arch) {
    return new RegistrySettings(
        allowHttp, credentials, arch, Map.of(), null, null, Duration.ofSeconds(5));
  }

  Resolved resolve(String uri) throws RegistryException {
    return new RegistryClient(settings(true, "amd64"), Map.of()).resolve(RegistryImage.parse(uri));
  }

  RegistryException failure(String uri) {
    return catchThrowableOfType(() -> resolve(uri), RegistryException.class);
  }

  String image() {
    return "docker://" + registry.registry() + "#lab/mpi:1";
  }

  static String manifest(String type) {
    return "{\"schemaVersion\":2,\"mediaType\":\""
        + type
        + "\",\"config\":{\"digest\":\""
        + C
        + "\"},\"layers\":[]}";
  }

  @Test
  void aTagIsTheDigestTheRegistrySaysWithOneRequest() throws Exception {
    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.json(manifest(V2), V2, A));
    Resolved r = resolve(image());
    assertThat(r).isEqualTo(new Resolved(A, null, V2, false));
    assertThat(registry.requests).hasSize(1);
    assertThat(registry.requests.get(0).accept()).contains(V2, LIST, OCI, INDEX);
    assertThat(registry.requests.get(0).authorization()).isNull();
  }

  @Test
  void withoutTheDigestHeaderTheDigestIsTheBodysSha256() throws Exception {
    String body = manifest(OCI);
    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.json(body, OCI, null));
    String want =
        "sha256:"
            + HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(body.getBytes(StandardCharsets.UTF_8)));
    assertThat(resolve(image()).digest()).isEqualTo(want);
  }

  @Test
  void aManifestListGivesThePlatformsManifest() throws Exception {
    String list =
        manifests(LIST, entry(B, V2, "linux", "arm64", "v8"), entry(C, V2, "linux", "amd64", null));
    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.json(list, LIST, A));
    assertThat(resolve(image())).isEqualTo(new Resolved(C, A, V2, false));
    Resolved arm =
        new RegistryClient(settings(true, RegistrySettings.debArch("aarch64")), Map.of())
            .resolve(RegistryImage.parse(image()));
    assertThat(arm).isEqualTo(new Resolved(B, A, V2, false));
    assertThat(registry.requests).hasSize(2);
  }

  @Test
  void anOciIndexGivesThePlatformsManifestAndSaysWhenItHasNone() throws Exception {
    String index =
        manifests(
            INDEX,
            entry(B, OCI, "unknown", "unknown", null),
            entry(C, OCI, "linux", "amd64", null));
    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.json(index, INDEX, A));
    assertThat(resolve(image())).isEqualTo(new Resolved(C, A, OCI, false));
    RegistryException e =
        catchThrowableOfType(
            () ->
                new RegistryClient(settings(true, "ppc64le"), Map.of())
                    .resolve(RegistryImage.parse(image())),
            RegistryException.class);
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.NOT_FOUND);
    assertThat(e.getMessage())
        .isEqualTo(
            "registry "
                + registry.registry()
                + ": repository lab/mpi, tag 1: no ppc64le image in its index (it has"
                + " unknown/unknown, linux/amd64)");
  }

  /** A manifest list or OCI index of media type {@code type} with the manifests {@code entries}. */
  static String manifests(String type, String... entries) {
    return "{\"schemaVersion\":2,\"mediaType\":\""
        + type
        + "\",\"manifests\":["
        + String.join(",", entries)
        + "]}";
  }

  static String entry(String digest, String type, String os, String arch, String variant) {
    return "{\"mediaType\":\""
        + type
        + "\",\"digest\":\""
        + digest
        + "\",\"size\":1,\"platform\":{\"os\":\""
        + os
        + "\",\"architecture\":\""
        + arch
        + "\""
        + (variant == null ? "" : ",\"variant\":\"" + variant + "\"")
        + "}}";
  }

  /** The manifest path answers 401 with the challenge unless the request carries {@code auth}. */
  void protect(String challenge, String auth) {
    registry.on(
        "/v2/lab/mpi/manifests/1",
        r ->
            auth.equals(r.authorization())
                ? Reply.json(manifest(V2), V2, A)
                : Reply.challenge(challenge));
  }

  @Test
  void aBearerChallengeIsAnsweredWithAnAnonymousTokenWhenTheNetrcDoesNotNameTheRegistry()
      throws Exception {
    try (FakeRegistry auth = new FakeRegistry("127.0.0.2")) {
      auth.on("/token", r -> Reply.json("{\"token\":\"" + TOKEN + "\"}", "application/json", null));
      protect(
          "Bearer realm=\"http://"
              + auth.registry()
              + "/token\",service=\"registry.lab\",scope=\"repository:lab/mpi:pull\"",
          "Bearer " + TOKEN);
      // A line for the token service alone is not enough: enroot needs the registry's to send any.
      Files.writeString(credentials, "machine 127.0.0.2 login u password " + SECRET + "\n");
      assertThat(resolve(image())).isEqualTo(new Resolved(A, null, V2, false));
      assertThat(auth.requests).hasSize(1);
      assertThat(auth.requests.get(0).authorization()).isNull();
      assertThat(auth.requests.get(0).query())
          .isEqualTo("service=registry.lab&scope=repository%3Alab%2Fmpi%3Apull");
      assertThat(registry.requests).hasSize(2);
    }
  }

  @Test
  void aBearerTokenIsAskedWithTheTokenServicesOwnNetrcCredentials() throws Exception {
    try (FakeRegistry auth = new FakeRegistry("127.0.0.2")) {
      String basic = basic("tu", SECRET);
      auth.on(
          "/token",
          r ->
              basic.equals(r.authorization())
                  ? Reply.json("{\"access_token\":\"" + TOKEN + "\"}", "application/json", null)
                  : Reply.status(401));
      protect(
          "Bearer realm=\"http://" + auth.registry() + "/token\",service=\"x\"", "Bearer " + TOKEN);
      Files.writeString(
          credentials,
          "machine 127.0.0.1 login u password other\nmachine 127.0.0.2 login tu password "
              + SECRET
              + "\n");
      assertThat(resolve(image())).isEqualTo(new Resolved(A, null, V2, true));
    }
  }

  @Test
  void aBasicChallengeIsAnsweredWithTheRegistrysNetrcCredentials() throws Exception {
    protect("Basic realm=\"lab\"", basic("u", SECRET));
    Files.writeString(credentials, "machine 127.0.0.1 login u password " + SECRET + "\n");
    assertThat(resolve(image())).isEqualTo(new Resolved(A, null, V2, true));
    // The image's user must be the netrc line's, as enroot's lookup has it.
    RegistryException e = failure("docker://someone@" + registry.registry() + "#lab/mpi:1");
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNAUTHORIZED);
    assertThat(e.getMessage())
        .endsWith("(no credentials for someone@127.0.0.1 in " + credentials + ")");
  }

  @Test
  void aRefusalIsOneLineNamingRegistryRepositoryTagAndStatus() throws Exception {
    protect("Basic realm=\"lab\"", "never");
    RegistryException none = failure(image());
    assertThat(none.kind()).isEqualTo(RegistryException.Kind.UNAUTHORIZED);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.getMessage())
        .isEqualTo(
            "registry "
                + registry.registry()
                + ": repository lab/mpi, tag 1: 401 Unauthorized (no credentials for 127.0.0.1 in "
                + credentials
                + ")");

    Files.writeString(credentials, "machine 127.0.0.1 login u password " + SECRET + "\n");
    RegistryException refused = failure(image());
    assertThat(refused.getMessage())
        .endsWith(": 401 Unauthorized (with the credentials for 127.0.0.1 in " + credentials + ")");
    assertNoSecret(refused);

    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.status(403));
    RegistryException forbidden = failure(image());
    assertThat(forbidden.kind()).isEqualTo(RegistryException.Kind.FORBIDDEN);
    assertThat(forbidden.status()).isEqualTo(403);
    assertThat(forbidden.getMessage()).contains(": repository lab/mpi, tag 1: 403 Forbidden");
    assertNoSecret(forbidden);

    registry.on("/v2/lab/mpi/manifests/1", r -> Reply.status(404));
    RegistryException missing = failure(image());
    assertThat(missing.kind()).isEqualTo(RegistryException.Kind.NOT_FOUND);
    assertThat(missing.getMessage())
        .isEqualTo(
            "registry " + registry.registry() + ": repository lab/mpi, tag 1: 404 Not Found");
  }

  @Test
  void aTokenServiceThatRefusesIsNamedAndNoSecretShows() throws Exception {
    try (FakeRegistry auth = new FakeRegistry("127.0.0.2")) {
      auth.on("/token", r -> Reply.status(401));
      protect("Bearer realm=\"http://" + auth.registry() + "/token\"", "never");
      Files.writeString(
          credentials,
          "machine 127.0.0.1 login u password "
              + SECRET
              + "\nmachine 127.0.0.2 login u password "
              + SECRET
              + "\n");
      RegistryException e = failure(image());
      assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNAUTHORIZED);
      assertThat(e.realmHost()).isEqualTo("127.0.0.2");
      assertThat(e.getMessage())
          .isEqualTo(
              "registry "
                  + registry.registry()
                  + ": repository lab/mpi, tag 1: token service 127.0.0.2 answered 401"
                  + " Unauthorized (with the credentials for 127.0.0.2 in "
                  + credentials
                  + ")");
      assertNoSecret(e);
    }
  }

  static void assertNoSecret(RegistryException e) {
    assertThat(e.getMessage()).doesNotContain(SECRET).doesNotContain(TOKEN).doesNotContain("\n");
    assertThat(e.toString()).doesNotContain(SECRET).doesNotContain(TOKEN);
    assertThat(Base64.getDecoder().decode(Base64.getEncoder().encode(e.getMessage().getBytes())))
        .asString()
        .doesNotContain(Base64.getEncoder().encodeToString(("u:" + SECRET).getBytes()));
  }

  static String basic(String login, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((login + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aClosedPortIsUnreachable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      port = s.getLocalPort();
    }
    RegistryException e = failure("docker://127.0.0.1:" + port + "#lab/mpi:1");
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNREACHABLE);
    assertThat(e.status()).isZero();
    assertThat(e.getMessage())
        .startsWith("registry 127.0.0.1:" + port + ": repository lab/mpi, tag 1: cannot connect to")
        .doesNotContain("\n");
  }

  @Test
  void aRegistryThatNeverAnswersIsUnreachableWithinTheTimeout() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      String reg = "127.0.0.1:" + s.getLocalPort();
      RegistrySettings oneSecond =
          new RegistrySettings(
              true, credentials, "amd64", Map.of(), null, null, Duration.ofSeconds(1));
      // The connection is accepted (the backlog), the request read by nobody.
      long t0 = System.nanoTime();
      RegistryException e =
          catchThrowableOfType(
              () ->
                  new RegistryClient(oneSecond, Map.of())
                      .resolve(RegistryImage.parse("docker://" + reg + "#lab/mpi:1")),
              RegistryException.class);
      assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNREACHABLE);
      assertThat(e.getMessage())
          .isEqualTo(
              "registry "
                  + reg
                  + ": repository lab/mpi, tag 1: no answer from "
                  + reg
                  + " within 1 s");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void anUnknownHostIsSaidSo() {
    RegistryException e = failure("docker://no-such-registry.invalid#lab/mpi:1");
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNREACHABLE);
    assertThat(e.getMessage())
        .isEqualTo(
            "registry no-such-registry.invalid: repository lab/mpi, tag 1: cannot connect to"
                + " no-such-registry.invalid: unknown host");
  }

  @Test
  void withoutAllowHttpTheRegistryIsAskedOverHttps() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      String reg = "127.0.0.1:" + s.getLocalPort();
      RegistrySettings https =
          new RegistrySettings(
              false, credentials, "amd64", Map.of(), null, null, Duration.ofSeconds(1));
      RegistryClient client = new RegistryClient(https, Map.of());
      RegistryImage img = RegistryImage.parse("docker://" + reg + "#lab/mpi:1");
      assertThat(client.manifestUrl(img).toString())
          .isEqualTo("https://" + reg + "/v2/lab/mpi/manifests/1");
      // What reaches the port first is a TLS handshake record (22, version 3.x); then it closes.
      java.util.concurrent.CompletableFuture<byte[]> first =
          new java.util.concurrent.CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try (java.net.Socket c = s.accept()) {
                  first.complete(c.getInputStream().readNBytes(2));
                } catch (IOException e) {
                  first.completeExceptionally(e);
                }
              });
      t.start();
      RegistryException e =
          catchThrowableOfType(() -> client.resolve(img), RegistryException.class);
      assertThat(first.get()).containsExactly(22, 3);
      assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNREACHABLE);
      assertThat(e.getMessage()).startsWith("registry " + reg + ": repository lab/mpi, tag 1: ");
      t.join();
    }
  }

  @Test
  void withoutAllowHttpAPlainHttpTokenRealmIsRefused() throws Exception {
    RegistryClient client = new RegistryClient(settings(true, "amd64"), Map.of());
    protect("Bearer realm=\"ftp://127.0.0.2/token\"", "never");
    RegistryException e =
        catchThrowableOfType(
            () -> client.resolve(RegistryImage.parse(image())), RegistryException.class);
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.PROTOCOL);
    assertThat(e.getMessage()).endsWith(": refusing ftp://127.0.0.2");
  }

  @Test
  void aPinnedImageIsItsDigestWithoutARequest() throws Exception {
    Resolved r = resolve("docker://" + registry.registry() + "#lab/mpi:1@" + B);
    assertThat(r).isEqualTo(new Resolved(B, null, null, false));
    assertThat(resolve("docker://" + registry.registry() + "#lab/mpi@" + B).digest()).isEqualTo(B);
    assertThat(registry.requests).isEmpty();
  }
}
