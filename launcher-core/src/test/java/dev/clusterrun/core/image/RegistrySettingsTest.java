package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistrySettingsTest {
  static final Map<String, String> HOME = Map.of("HOME", "/home/u");

  @Test
  void enrootsSettingsOverTheEnvironmentWithItsFalseWords() {
    for (String no : new String[] {"", "no", "n", "N", "NO", "false", "f", "FALSE"}) {
      assertThat(RegistrySettings.of(Map.of("ENROOT_ALLOW_HTTP", no), HOME).allowHttp())
          .as(no)
          .isFalse();
    }
    assertThat(RegistrySettings.of(Map.of("ENROOT_ALLOW_HTTP", "yes"), HOME).allowHttp()).isTrue();
    assertThat(
            RegistrySettings.of(
                    Map.of("ENROOT_ALLOW_HTTP", "no"), Map.of("ENROOT_ALLOW_HTTP", "yes"))
                .allowHttp())
        .isFalse();
    assertThat(RegistrySettings.of(Map.of(), HOME).credentialsFile())
        .isEqualTo(Path.of("/home/u/.config/enroot/.credentials"));
    assertThat(
            RegistrySettings.of(Map.of(), Map.of("HOME", "/h", "XDG_CONFIG_HOME", "/x"))
                .credentialsFile())
        .isEqualTo(Path.of("/x/enroot/.credentials"));
    assertThat(RegistrySettings.of(Map.of("ENROOT_CONFIG_PATH", "/etc/e"), HOME).credentialsFile())
        .isEqualTo(Path.of("/etc/e/.credentials"));
    RegistrySettings s =
        RegistrySettings.of(
            Map.of("SSL_CERT_FILE", "/ca.pem", "ENROOT_TRANSFER_TIMEOUT", "7"),
            Map.of("HOME", "/h", "https_proxy", "http://p:3128", "HTTP_PROXY", "http://q:1"));
    assertThat(s.caFile()).isEqualTo("/ca.pem");
    assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(s.proxies()).containsExactly(Map.entry("https_proxy", "http://p:3128"));
  }

  @Test
  void architecturesAsEnrootNamesThem() {
    assertThat(RegistrySettings.debArch("x86_64")).isEqualTo("amd64");
    assertThat(RegistrySettings.debArch("aarch64")).isEqualTo("arm64");
    assertThat(RegistrySettings.debArch("ppc64le")).isEqualTo("ppc64le");
    assertThat(RegistrySettings.of(Map.of(), HOME).withArch("aarch64").arch()).isEqualTo("arm64");
  }

  @Test
  void proxiesAsCurlPicksThem() {
    Transport.Proxies p =
        new Transport.Proxies(
            Map.of(
                "https_proxy", "http://proxy.lab:3128",
                "all_proxy", "proxy.lab",
                "no_proxy", "localhost, .internal.lab,10.0.0.1:5000"));
    assertThat(p.select(URI.create("https://nvcr.io/v2/")).get(0).address().toString())
        .contains("proxy.lab", "3128");
    assertThat(p.select(URI.create("http://reg.example/v2/")).get(0).address().toString())
        .contains("proxy.lab", "1080");
    for (String direct :
        new String[] {
          "https://localhost/v2/", "https://reg.internal.lab/v2/", "http://10.0.0.1:5000/v2/"
        }) {
      assertThat(p.select(URI.create(direct))).as(direct).containsExactly(Proxy.NO_PROXY);
    }
    assertThat(new Transport.Proxies(Map.of()).select(URI.create("https://x/")))
        .containsExactly(Proxy.NO_PROXY);
  }
}
