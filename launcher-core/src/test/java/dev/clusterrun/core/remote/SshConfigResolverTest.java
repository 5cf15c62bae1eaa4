package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution through the real {@code ssh -G} with a temporary config file ({@code ssh -F}). */
class SshConfigResolverTest {
  @TempDir Path home;
  Path config;

  @BeforeEach
  void write() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh")), "OpenSSH client not installed");
    Files.createDirectories(home.resolve(".ssh"));
    Files.writeString(home.resolve(".ssh/id_ed25519"), "not read here");
    Files.writeString(home.resolve(".ssh/k_alice_10.0.0.9"), "not read here");
    config = home.resolve("config");
    Files.writeString(
        config,
        String.join(
            "\n",
            "Host node*",
            "  User alice",
            "  Port 2222",
            "  ConnectTimeout 7",
            "  ServerAliveInterval 15",
            "  ServerAliveCountMax 4",
            "  UserKnownHostsFile ~/.ssh/kh1 ~/.ssh/kh2",
            "  StrictHostKeyChecking accept-new",
            "  HashKnownHosts no",
            "Host jumpy",
            "  HostName 10.0.0.9",
            "  User alice",
            "  IdentityFile %d/.ssh/k_%r_%h",
            "  IdentityFile ~/.ssh/missing",
            "  ProxyJump bob@bast:2201,inner",
            "Host bast",
            "  HostName bastion.example",
            "  Port 2200",
            "Host inner",
            "  HostName 10.0.0.2",
            "Host *",
            "  HashKnownHosts yes",
            ""));
  }

  SshConfigResolver resolver(SshSpec spec) {
    return new SshConfigResolver(spec, config, SshConfigResolver::runProcess, home, "localuser");
  }

  @Test
  void readsUserPortTimeoutsAndKnownHostsFromTheConfig() {
    SshTarget t = resolver(SshSpec.EMPTY).resolve("node3");
    assertThat(t.alias()).isEqualTo("node3");
    assertThat(t.hostname()).isEqualTo("node3");
    assertThat(t.user()).isEqualTo("alice");
    assertThat(t.port()).isEqualTo(2222);
    assertThat(t.connectTimeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(t.serverAliveInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(t.serverAliveCountMax()).isEqualTo(4);
    // ssh -G expands ~ in UserKnownHostsFile itself, with the real home directory
    Path realHome = Path.of(System.getProperty("user.home"));
    assertThat(t.userKnownHostsFiles())
        .containsExactly(realHome.resolve(".ssh/kh1"), realHome.resolve(".ssh/kh2"));
    assertThat(t.knownHostsPolicy()).isEqualTo(KnownHostsPolicy.ACCEPT_NEW);
    assertThat(t.hashKnownHosts()).isFalse();
    // default key paths are listed by ssh -G whether they exist or not: only existing ones stay
    assertThat(t.identityFiles()).containsExactly(home.resolve(".ssh/id_ed25519"));
    assertThat(t.jumps()).isEmpty();
    assertThat(t.knownHostsName()).isEqualTo("[node3]:2222");
  }

  @Test
  void explicitSettingsWinOverTheConfig() throws Exception {
    Path id = home.resolve("job_key");
    Files.writeString(id, "x");
    SshSpec spec =
        new SshSpec(
            "carol", 2022, id.toString(), KnownHostsPolicy.STRICT, Duration.ofSeconds(3), null);
    SshTarget t = resolver(spec).resolve("node3");
    assertThat(t.user()).isEqualTo("carol");
    assertThat(t.port()).isEqualTo(2022);
    assertThat(t.identityFiles()).containsExactly(id);
    assertThat(t.knownHostsPolicy()).isEqualTo(KnownHostsPolicy.STRICT);
    assertThat(t.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void expandsTokensAndResolvesEveryProxyJumpHop() {
    SshTarget t = resolver(SshSpec.EMPTY).resolve("jumpy");
    assertThat(t.hostname()).isEqualTo("10.0.0.9");
    // explicit IdentityFile lines replace the defaults; the missing one is skipped
    assertThat(t.identityFiles()).containsExactly(home.resolve(".ssh/k_alice_10.0.0.9"));
    assertThat(t.hashKnownHosts()).isTrue();
    assertThat(t.connectTimeout()).isEqualTo(SshTarget.DEFAULT_CONNECT_TIMEOUT);
    assertThat(t.knownHostsPolicy()).isEqualTo(KnownHostsPolicy.STRICT); // "ask" cannot ask
    assertThat(t.jumps()).extracting(SshTarget::alias).containsExactly("bast", "inner");
    SshTarget bast = t.jumps().get(0);
    assertThat(bast.hostname()).isEqualTo("bastion.example");
    assertThat(bast.user()).isEqualTo("bob");
    assertThat(bast.port()).isEqualTo(2201); // the hop's own port wins over the config's
    SshTarget inner = t.jumps().get(1);
    assertThat(inner.hostname()).isEqualTo("10.0.0.2");
    assertThat(inner.port()).isEqualTo(22);
    assertThat(inner.user()).isEqualTo(System.getProperty("user.name")); // ssh -G's default
  }

  @Test
  void jobUserAndPortDoNotApplyToJumpHosts() {
    SshSpec spec = new SshSpec("carol", 2022, null, null, null, null);
    SshTarget t = resolver(spec).resolve("jumpy");
    assertThat(t.user()).isEqualTo("carol");
    assertThat(t.jumps().get(1).user()).isEqualTo(System.getProperty("user.name"));
    assertThat(t.jumps().get(1).port()).isEqualTo(22);
  }

  @Test
  void optionLikeHostNamesAreRejectedBeforeSshSeesThem() {
    assertThatThrownBy(() -> resolver(SshSpec.EMPTY).resolve("-oProxyCommand=touch /tmp/x"))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("not a valid host name");
  }

  @Test
  void brokenConfigIsBadInputNamingTheHost() throws Exception {
    Files.writeString(config, "Host *\n  NoSuchOption yes\n");
    assertThatThrownBy(() -> resolver(SshSpec.EMPTY).resolve("node1"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("node1: ssh -G failed:")
        .hasMessageContaining("config: line 2: Bad configuration option: nosuchoption")
        .hasMessageNotContaining("\n");
  }

  @Test
  void withoutSshFallsBackToDefaultsAndSaysSo() throws Exception {
    Files.writeString(home.resolve(".ssh/id_rsa"), "x");
    List<List<String>> calls = new ArrayList<>();
    SshConfigResolver r =
        new SshConfigResolver(
            SshSpec.EMPTY,
            null,
            argv -> {
              calls.add(argv);
              return Optional.empty();
            },
            home,
            "localuser");
    SshTarget t = r.resolve("node9");
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0)).startsWith("ssh").endsWith("--", "node9");
    assertThat(t.user()).isEqualTo("localuser");
    assertThat(t.port()).isEqualTo(22);
    assertThat(t.identityFiles())
        .containsExactly(home.resolve(".ssh/id_ed25519"), home.resolve(".ssh/id_rsa"));
    assertThat(t.userKnownHostsFiles()).containsExactly(home.resolve(".ssh/known_hosts"));
    assertThat(t.notes()).singleElement().asString().contains("ssh) is not installed");
  }

  @Test
  void missingSshBinaryIsDetected() throws Exception {
    assertThat(SshConfigResolver.runProcess(List.of("/nonexistent/ssh", "-G", "x"))).isEmpty();
  }

  @Test
  void hopParsing() {
    assertThat(SshConfigResolver.Hop.parse("x", "bob@h:2200"))
        .isEqualTo(new SshConfigResolver.Hop("bob", "h", 2200));
    assertThat(SshConfigResolver.Hop.parse("x", "ssh://h"))
        .isEqualTo(new SshConfigResolver.Hop(null, "h", null));
    assertThat(SshConfigResolver.Hop.parse("x", "[::1]:22"))
        .isEqualTo(new SshConfigResolver.Hop(null, "::1", 22));
    assertThatThrownBy(() -> SshConfigResolver.Hop.parse("node1", "h:http"))
        .hasMessage("node1: bad port 'http'");
  }
}
