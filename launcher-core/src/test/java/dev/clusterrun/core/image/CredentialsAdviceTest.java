package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CredentialsAdviceTest {
  @Test
  void nvcrNeedsItsOwnMachineAndNvidiasTokenService() {
    List<String> lines =
        CredentialsAdvice.missingMachines("nvcr.io", "nvcr.io", Netrc.parse("", Map.of()));
    assertThat(lines)
        .containsExactly(
            "machine nvcr.io login $oauthtoken password <NGC API key>",
            "machine authn.nvidia.com login $oauthtoken password <NGC API key>");
    assertThat(CredentialsAdvice.advice(Path.of("/home/u/.config/enroot/.credentials"), lines))
        .isEqualTo(
            "add to /home/u/.config/enroot/.credentials (mode 600; enroot reads it as a netrc"
                + " file):\n"
                + "  machine nvcr.io login $oauthtoken password <NGC API key>\n"
                + "  machine authn.nvidia.com login $oauthtoken password <NGC API key>\n");
    Netrc half = Netrc.parse("machine nvcr.io login $oauthtoken password k\n", Map.of());
    assertThat(CredentialsAdvice.missingMachines("nvcr.io", null, half))
        .containsExactly("machine authn.nvidia.com login $oauthtoken password <NGC API key>");
  }

  @Test
  void aRegistryWithItsPortAndATokenServiceElsewhere() {
    Netrc none = Netrc.parse("", Map.of());
    assertThat(CredentialsAdvice.missingMachines("10.0.0.1:5000", "auth.lab", none))
        .containsExactly(
            "machine 10.0.0.1 login <login> password <password>",
            "machine auth.lab login <login> password <password>");
    Netrc both =
        Netrc.parse(
            "machine 10.0.0.1 login a password b\nmachine auth.lab login a password b", Map.of());
    assertThat(CredentialsAdvice.missingMachines("10.0.0.1:5000", "auth.lab", both)).isEmpty();
    assertThat(CredentialsAdvice.advice(Path.of("/x"), List.of())).isEmpty();
  }
}
