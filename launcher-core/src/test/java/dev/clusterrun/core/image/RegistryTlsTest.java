package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS to a registry whose certificate only SSL_CERT_FILE or SSL_CERT_DIR vouches for: a real TLS
 * server on 127.0.0.1 with a self-signed certificate for that address (test resources).
 */
class RegistryTlsTest {
  static final String DIGEST = "sha256:" + "d".repeat(64);
  static final String PASS = "changeit";

  @TempDir static Path tmp;
  static HttpsServer server;
  static Path pem;

  @BeforeAll
  static void start() throws Exception {
    // Made once with: keytool -genkeypair -alias reg -keyalg EC -groupname secp256r1
    //   -validity 36500 -dname CN=127.0.0.1 -ext SAN=ip:127.0.0.1 -storetype PKCS12 (changeit),
    // then keytool -exportcert -rfc for the PEM.
    Path ks = copy("registry-127.0.0.1.p12");
    pem = copy("registry-127.0.0.1.pem");
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PASS.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(store, PASS.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ctx));
    server.createContext(
        "/v2/lab/mpi/manifests/1",
        x -> {
          byte[] body =
              ("{\"schemaVersion\":2,\"mediaType\":\"" + RegistryClientTest.V2 + "\"}")
                  .getBytes(StandardCharsets.UTF_8);
          x.getResponseHeaders().add("Docker-Content-Digest", DIGEST);
          x.sendResponseHeaders(200, body.length);
          x.getResponseBody().write(body);
          x.close();
        });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  static Path copy(String name) throws Exception {
    Path to = tmp.resolve(name);
    try (InputStream in = RegistryTlsTest.class.getResourceAsStream("/image/" + name)) {
      Files.copy(in, to);
    }
    return to;
  }

  static Resolved resolve(String caFile, String caDir) throws RegistryException {
    RegistrySettings s =
        new RegistrySettings(
            false, tmp.resolve("none"), "amd64", Map.of(), caFile, caDir, Duration.ofSeconds(5));
    String reg = "127.0.0.1:" + server.getAddress().getPort();
    return new RegistryClient(s, Map.of())
        .resolve(RegistryImage.parse("docker://" + reg + "#lab/mpi:1"));
  }

  @Test
  void sslCertFileIsTrusted() throws Exception {
    assertThat(resolve(pem.toString(), null).digest()).isEqualTo(DIGEST);
  }

  @Test
  void sslCertDirIsTrustedWithOtherFilesInIt() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("certs"));
    Files.copy(pem, dir.resolve("a1b2c3d4.0"));
    Files.writeString(dir.resolve("README"), "not a certificate\n");
    assertThat(resolve(null, dir.toString()).digest()).isEqualTo(DIGEST);
  }

  @Test
  void withoutThemTheCertificateIsRefusedAsUnreachable() throws Exception {
    RegistryException e = catchThrowableOfType(() -> resolve(null, null), RegistryException.class);
    assertThat(e.kind()).isEqualTo(RegistryException.Kind.UNREACHABLE);
    assertThat(e.getMessage()).contains(": repository lab/mpi, tag 1: TLS with 127.0.0.1:");
    RegistryException bad =
        catchThrowableOfType(
            () -> resolve(tmp.resolve("missing.pem").toString(), null), RegistryException.class);
    assertThat(bad.getMessage()).contains("SSL_CERT_FILE " + tmp.resolve("missing.pem"));
  }
}
