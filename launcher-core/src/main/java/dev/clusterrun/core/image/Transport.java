package dev.clusterrun.core.image;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The HTTP client a {@link RegistryClient} uses: curl's proxies and certificates, no redirects. */
final class Transport {
  private Transport() {}

  /**
   * The client for these settings.
   *
   * @throws IOException when SSL_CERT_FILE or SSL_CERT_DIR cannot be read or hold no certificate
   */
  static HttpClient client(RegistrySettings s) throws IOException {
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(RegistrySettings.CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .proxy(new Proxies(s.proxies()));
    if (s.caFile() != null || s.caDir() != null) {
      b.sslContext(trusting(s.caFile(), s.caDir()));
    }
    return b.build();
  }

  /** An SSL context that trusts exactly the PEM certificates of the file and the directory. */
  static SSLContext trusting(String file, String dir) throws IOException {
    List<Certificate> certs = new ArrayList<>();
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509");
      if (file != null) {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
          certs.addAll(cf.generateCertificates(in));
        } catch (GeneralSecurityException | IOException e) {
          throw new IOException("SSL_CERT_FILE " + file + ": " + reason(e), e);
        }
      }
      if (dir != null) {
        certs.addAll(fromDirectory(cf, Path.of(dir)));
      }
      if (certs.isEmpty()) {
        throw new IOException(
            "no certificate in "
                + (file != null ? "SSL_CERT_FILE " + file : "SSL_CERT_DIR " + dir));
      }
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      for (int i = 0; i < certs.size(); i++) {
        ks.setCertificateEntry("ca-" + i, certs.get(i));
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IOException("certificates: " + reason(e), e);
    }
  }

  /** Every file of the directory that holds PEM certificates (others, e.g. CRLs, skipped). */
  private static List<Certificate> fromDirectory(CertificateFactory cf, Path dir)
      throws IOException {
    List<Certificate> certs = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        if (!Files.isRegularFile(f)) {
          continue;
        }
        try (InputStream in = Files.newInputStream(f)) {
          certs.addAll(cf.generateCertificates(in));
        } catch (GeneralSecurityException | IOException e) {
          // not a certificate: c_rehash directories hold other files too
        }
      }
    } catch (IOException e) {
      throw new IOException("SSL_CERT_DIR " + dir + ": " + reason(e), e);
    }
    return certs;
  }

  static String reason(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /**
   * curl's proxy variables: {@code http_proxy} for HTTP (only in lower case), {@code https_proxy}
   * for HTTPS, {@code all_proxy} for both, and {@code no_proxy} ({@code *}, or host names and
   * domains, comma-separated, a leading dot optional) for hosts reached directly.
   */
  static final class Proxies extends ProxySelector {
    private final Map<String, String> vars;

    Proxies(Map<String, String> vars) {
      this.vars = vars;
    }

    @Override
    public List<Proxy> select(URI uri) {
      String url =
          "https".equalsIgnoreCase(uri.getScheme())
              ? first("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
              : first("http_proxy", "all_proxy", "ALL_PROXY");
      if (url == null || bypassed(uri.getHost())) {
        return List.of(Proxy.NO_PROXY);
      }
      return List.of(new Proxy(Proxy.Type.HTTP, address(url)));
    }

    private String first(String... names) {
      for (String n : names) {
        if (vars.get(n) != null) {
          return vars.get(n);
        }
      }
      return null;
    }

    boolean bypassed(String host) {
      String list = first("no_proxy", "NO_PROXY");
      if (list == null || host == null) {
        return false;
      }
      String h = host.toLowerCase(Locale.ROOT);
      for (String entry : list.split(",")) {
        String e = entry.strip().toLowerCase(Locale.ROOT);
        if (e.equals("*")) {
          return true;
        }
        e = e.startsWith(".") ? e.substring(1) : e;
        int colon = e.lastIndexOf(':');
        if (colon > 0 && !e.contains("]") && e.indexOf(':') == colon) {
          e = e.substring(0, colon);
        }
        if (!e.isEmpty() && (h.equals(e) || h.endsWith("." + e))) {
          return true;
        }
      }
      return false;
    }

    /** {@code [http://][user:password@]host[:port]}; curl's default port is 1080. */
    private static SocketAddress address(String url) {
      String u = url.contains("://") ? url : "http://" + url;
      URI p = URI.create(u);
      int port = p.getPort() > 0 ? p.getPort() : 1080;
      return InetSocketAddress.createUnresolved(p.getHost(), port);
    }

    @Override
    public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
      // the request fails with the error; nothing to remember
    }
  }
}
