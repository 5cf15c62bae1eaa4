package dev.clusterrun.core.image;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the head talks to a registry, from enroot's settings as its {@code import} would use them.
 *
 * @param allowHttp {@code ENROOT_ALLOW_HTTP}: plain HTTP instead of HTTPS, as enroot's curl then
 *     asks (redirects may lead to HTTPS); without it only HTTPS
 * @param credentialsFile {@code $ENROOT_CONFIG_PATH/.credentials}, a netrc file
 * @param arch the platform's architecture as enroot names it for manifest lists ({@code amd64},
 *     {@code arm64}, {@code ppc64le}; see {@link #debArch})
 * @param proxies {@code http_proxy}, {@code https_proxy}, {@code all_proxy}, {@code no_proxy} (and
 *     their upper-case names, except {@code HTTP_PROXY}, which curl ignores), the ones set
 * @param caFile {@code SSL_CERT_FILE}: the certificates HTTPS trusts instead of the JVM's, or null
 * @param caDir {@code SSL_CERT_DIR}: a directory of certificates, the same, or null
 * @param timeout the most one request (connecting included) may take
 */
public record RegistrySettings(
    boolean allowHttp,
    Path credentialsFile,
    String arch,
    Map<String, String> proxies,
    String caFile,
    String caDir,
    Duration timeout) {
  /** Connecting to a registry or a proxy takes at most this long. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** A request takes at most this long unless {@code ENROOT_TRANSFER_TIMEOUT} says less. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** enroot's false values ({@code config::fini}): the setting is then unset. */
  private static final Pattern FALSE = Pattern.compile("no?|N[oO]?|[fF](alse)?|FALSE");

  private static final String[] PROXY_NAMES = {
    "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"
  };

  public RegistrySettings {
    proxies = Map.copyOf(proxies == null ? Map.of() : proxies);
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
  }

  /**
   * The settings enroot's {@code import} would use on this machine.
   *
   * @param enrootSettings enroot's effective values by name ({@code ENROOT_*}, {@code
   *     SSL_CERT_FILE}/{@code _DIR} and the lower-case proxies enroot.conf may set), winning over
   *     the environment; may be empty
   * @param environment the process environment: {@code HOME}, {@code XDG_CONFIG_HOME} and the
   *     proxies and certificates enroot's settings do not name
   */
  public static RegistrySettings of(
      Map<String, String> enrootSettings, Map<String, String> environment) {
    Map<String, String> all = new LinkedHashMap<>(environment);
    all.putAll(enrootSettings);
    String config = set(all.get("ENROOT_CONFIG_PATH"));
    if (config == null) {
      String xdg = given(all.get("XDG_CONFIG_HOME"));
      String home = given(all.get("HOME"));
      config =
          (xdg != null ? xdg : (home != null ? home : System.getProperty("user.home")) + "/.config")
              + "/enroot";
    }
    Map<String, String> proxies = new LinkedHashMap<>();
    for (String name : PROXY_NAMES) {
      String v = all.get(name);
      if (v != null && !v.isBlank()) {
        proxies.put(name, v.strip());
      }
    }
    Duration timeout = DEFAULT_TIMEOUT;
    String transfer = set(all.get("ENROOT_TRANSFER_TIMEOUT"));
    if (transfer != null && transfer.matches("[0-9]{1,6}") && Integer.parseInt(transfer) > 0) {
      timeout =
          Duration.ofSeconds(Math.min(Integer.parseInt(transfer), DEFAULT_TIMEOUT.toSeconds()));
    }
    return new RegistrySettings(
        set(all.get("ENROOT_ALLOW_HTTP")) != null,
        Path.of(config, ".credentials"),
        debArch(System.getProperty("os.arch")),
        proxies,
        given(all.get("SSL_CERT_FILE")),
        given(all.get("SSL_CERT_DIR")),
        timeout);
  }

  /** The same settings for another architecture (the head's {@code uname -m}, or enroot's). */
  public RegistrySettings withArch(String unameM) {
    return new RegistrySettings(
        allowHttp, credentialsFile, debArch(unameM), proxies, caFile, caDir, timeout);
  }

  /**
   * A machine's architecture as enroot's {@code common::debarch} names it ({@code x86_64} is {@code
   * amd64}, {@code aarch64} {@code arm64}); the JVM's {@code os.arch} names are taken too.
   */
  public static String debArch(String arch) {
    String a = arch == null ? "" : arch.strip().toLowerCase(Locale.ROOT);
    return switch (a) {
      case "x86_64", "amd64" -> "amd64";
      case "aarch64", "arm64" -> "arm64";
      default -> a;
    };
  }

  /** An {@code ENROOT_*} value enroot counts as set: not empty and not one of its false words. */
  private static String set(String v) {
    return v == null || FALSE.matcher(v).matches() ? null : given(v);
  }

  private static String given(String v) {
    return v == null || v.isEmpty() ? null : v;
  }
}
