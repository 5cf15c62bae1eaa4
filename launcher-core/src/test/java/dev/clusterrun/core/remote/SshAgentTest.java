package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agent authentication with a real OpenSSH ssh-agent and ssh-add. */
class SshAgentTest {
  /** The connect deadlines a session's fan-out keeps. */
  static final FanOut DEADLINES = new FanOut(1);

  @TempDir Path dir;
  Process agent;
  Path socket;
  MinaServer server;

  @BeforeEach
  void startAgent() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh-agent")), "ssh-agent not installed");
    socket = dir.resolve("agent.sock");
    agent =
        new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("agent.log").toFile())
            .start();
    for (int i = 0; i < 100 && !Files.exists(socket); i++) {
      Thread.sleep(20);
    }
    assertThat(socket).exists();
    server = new MinaServer(false);
    Files.writeString(dir.resolve("known_hosts"), server.knownHostsLine() + "\n");
  }

  @AfterEach
  void stopAgent() throws Exception {
    if (server != null) {
      server.close();
    }
    if (agent != null) {
      agent.destroy();
      agent.waitFor(5, TimeUnit.SECONDS);
    }
  }

  void sshAdd(Path key) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("ssh-add", key.toString()).redirectErrorStream(true);
    pb.environment().put("SSH_AUTH_SOCK", socket.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
  }

  SshTarget target() {
    return SshTarget.of("node5", "127.0.0.1", server.port(), "tester")
        .withIdentityAgent(socket.toString())
        .withKnownHosts(
            List.of(dir.resolve("known_hosts")), List.of(), KnownHostsPolicy.STRICT, false);
  }

  @Test
  void listsTheKeysTheAgentHolds() throws Exception {
    Path k = Keys.keygen(dir, "id_ed25519", "ed25519", "");
    sshAdd(k);
    try (SshAgent a = SshAgent.connect(socket)) {
      List<SshAgent.Identity> ids = a.identities();
      assertThat(ids).hasSize(1);
      assertThat(ids.get(0).keyType()).isEqualTo("ssh-ed25519");
      assertThat(ids.get(0).comment()).isEqualTo("id_ed25519");
      String pub = Files.readString(Path.of(k + ".pub")).split(" ")[1];
      assertThat(java.util.Base64.getEncoder().encodeToString(ids.get(0).blob())).isEqualTo(pub);
    }
  }

  @Test
  void authenticatesWithAgentKeysOnly() throws Exception {
    // The keys live only in the agent: the files are deleted after ssh-add.
    Path ecdsa = Keys.keygen(dir, "id_ecdsa", "ecdsa", "");
    Path rsa = Keys.keygen(dir, "id_rsa", "rsa", "");
    Path unrelated = Keys.keygen(dir, "id_unrelated", "ecdsa", "");
    sshAdd(unrelated); // tried first and refused by the server: the next key must still be tried
    sshAdd(ecdsa);
    server.authorize(Path.of(ecdsa + ".pub"));
    Files.delete(ecdsa);
    try (SshNodeShell sh = SshNodeShell.connect("node5", target(), DEADLINES)) {
      assertThat(sh.run("echo agent", Duration.ofSeconds(10)).stdout()).isEqualTo("agent\n");
    }

    // RSA through the agent signs with rsa-sha2-512
    server.authorized.clear();
    sshAdd(rsa);
    server.authorize(Path.of(rsa + ".pub"));
    try (SshNodeShell sh = SshNodeShell.connect("node5", target(), DEADLINES)) {
      assertThat(sh.run("echo rsa", Duration.ofSeconds(10)).stdout()).isEqualTo("rsa\n");
    }
  }

  @Test
  void encryptedKeyWorksOnceTheAgentHoldsIt() throws Exception {
    Path locked = Keys.keygen(dir, "id_locked", "ecdsa", "");
    server.authorize(Path.of(locked + ".pub"));
    sshAdd(locked);
    // re-encrypt the file: the agent already holds the key, the file is skipped without asking
    Process p =
        new ProcessBuilder(
                "ssh-keygen", "-q", "-p", "-N", "new secret", "-P", "", "-f", locked.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(p.waitFor()).isZero();
    try (SshNodeShell sh =
        SshNodeShell.connect("node5", target().withIdentityFiles(List.of(locked)), DEADLINES)) {
      assertThat(sh.run("echo ok", Duration.ofSeconds(10)).ok()).isTrue();
    }
  }

  @Test
  void emptyAgentAndNoFilesSaysThereIsNoKey() {
    assertThatThrownBy(() -> SshNodeShell.connect("node5", target(), DEADLINES))
        .isInstanceOf(NodeConnectException.class)
        .hasMessageStartingWith("node5: authentication failed for tester: no key to offer");
  }
}
