package dev.clusterrun.core.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** enroot's credentials file: a netrc as curl reads it, after enroot's {@code $} substitution. */
class NetrcTest {
  @TempDir Path tmp;

  Netrc read(String text, Map<String, String> env) throws Exception {
    Path f = tmp.resolve(".credentials");
    Files.writeString(f, text);
    return Netrc.read(f, env);
  }

  static Optional<Netrc.Credentials> creds(String login, String password) {
    return Optional.of(new Netrc.Credentials(login, password));
  }

  @Test
  void machinesOnOneLineOrManyWithCommentsAndDefault() throws Exception {
    Netrc n =
        read(
            "# NVIDIA GPU Cloud (both endpoints are required)\n"
                + "machine nvcr.io login $oauthtoken password key1\n"
                + "machine authn.nvidia.com\n"
                + "  login $oauthtoken\n"
                + "  account ignored\n"
                + "  password key2\n"
                + "default login anon password guest\n",
            Map.of());
    assertThat(n.machine("nvcr.io")).isEqualTo(creds("$oauthtoken", "key1"));
    assertThat(n.machine("authn.nvidia.com")).isEqualTo(creds("$oauthtoken", "key2"));
    assertThat(n.machine("other.example")).isEqualTo(creds("anon", "guest"));
    assertThat(n.names("nvcr.io")).isTrue();
    assertThat(n.names("other.example")).isFalse();
  }

  @Test
  void aMacdefIsSkippedToTheEmptyLine() throws Exception {
    Netrc n =
        read(
            "macdef init\nmachine fake login evil password no\ncd /tmp\n\n"
                + "machine real.example login u password p\n",
            Map.of());
    assertThat(n.names("fake")).isFalse();
    assertThat(n.machine("real.example")).isEqualTo(creds("u", "p"));
  }

  @Test
  void quotedTokensHoldSpacesAndEscapes() throws Exception {
    Netrc n =
        read(
            "machine q.example login \"a user\" password \"p w\\\"d\\\\x\"\n"
                + "machine r.example login u password pl\"ain\n",
            Map.of());
    assertThat(n.machine("q.example")).isEqualTo(creds("a user", "p w\"d\\x"));
    assertThat(n.machine("r.example")).isEqualTo(creds("u", "pl\"ain"));
  }

  @Test
  void aDollarPasswordIsTheEnvironmentsAndACommandIsNotRun() throws Exception {
    Path marker = tmp.resolve("ran");
    Netrc n =
        read(
            "machine v.example login u password $NGC_KEY\n"
                + "machine w.example login u password ${NGC_KEY}\n"
                + "machine c.example login AWS password $(touch "
                + marker
                + ")\n"
                + "machine m.example login u password $UNSET\n",
            Map.of("NGC_KEY", "from env"));
    assertThat(n.machine("v.example")).isEqualTo(creds("u", "from env"));
    assertThat(n.machine("w.example")).isEqualTo(creds("u", "from env"));
    assertThat(n.machine("c.example").orElseThrow().usable()).isFalse();
    assertThat(n.machine("m.example").orElseThrow().usable()).isFalse();
    assertThat(marker).doesNotExist();
  }

  @Test
  void aMissingFileHasNoMachineAndCredentialsHideThePassword() throws Exception {
    assertThat(Netrc.read(tmp.resolve("none")).machine("x")).isEmpty();
    assertThat(new Netrc.Credentials("u", "hunter2").toString())
        .contains("u")
        .doesNotContain("hunter2");
  }
}
