package dev.clusterrun.core.image;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The requests a {@link RegistryClient} makes: curl's proxies and certificates, no redirects, one
 * blocking HTTP/1.1 request at a time in the caller's thread. Not {@code java.net.http}: its client
 * keeps a selector thread waiting in native code for the rest of the process, and the JVM waits 300
 * ms for such a thread at every exit (a third of a small registry run's extra time).
 */
final class Transport {
  private final Proxies proxies;
  private final SSLSocketFactory tls;

  /** One answer: status, headers (names in lower case) and at most the first bytes of the body. */
  record Response(int status, Map<String, List<String>> headers, byte[] body) {
    /** The header's first value, or null. */
    String header(String name) {
      List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
      return v == null || v.isEmpty() ? null : v.get(0);
    }
  }

  private Transport(Proxies proxies, SSLSocketFactory tls) {
    this.proxies = proxies;
    this.tls = tls;
  }

  /**
   * The transport for these settings.
   *
   * @throws IOException when SSL_CERT_FILE or SSL_CERT_DIR cannot be read or hold no certificate
   */
  static Transport of(RegistrySettings s) throws IOException {
    SSLSocketFactory tls =
        s.caFile() != null || s.caDir() != null
            ? trusting(s.caFile(), s.caDir()).getSocketFactory()
            : null;
    return new Transport(new Proxies(s.proxies()), tls);
  }

  /**
   * One GET of {@code url}: connected within {@code connect}, each read within {@code timeout}, at
   * most {@code max} bytes of its body read. A connection whose body was read to its end is kept
   * for the next request to the same host (the token, then the manifest again: one TLS handshake,
   * as with java.net.http); one that failed is closed.
   */
  Response get(URI url, Map<String, String> headers, Duration connect, Duration timeout, int max)
      throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) url.toURL().openConnection(proxies.select(url).get(0));
    try {
      c.setInstanceFollowRedirects(false);
      c.setUseCaches(false);
      c.setConnectTimeout(millis(connect));
      c.setReadTimeout(millis(timeout));
      if (tls != null && c instanceof HttpsURLConnection h) {
        h.setSSLSocketFactory(tls);
      }
      headers.forEach(c::setRequestProperty);
      int status = c.getResponseCode();
      Map<String, List<String>> h = new HashMap<>();
      c.getHeaderFields()
          .forEach(
              (k, v) -> {
                if (k != null) {
                  h.put(k.toLowerCase(Locale.ROOT), v);
                }
              });
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      byte[] body;
      if (in == null) {
        body = new byte[0];
      } else {
        try (in) {
          body = in.readNBytes(max);
        }
      }
      return new Response(status, Map.copyOf(h), body);
    } catch (IOException | RuntimeException e) {
      c.disconnect();
      throw e;
    }
  }

  private static int millis(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
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
