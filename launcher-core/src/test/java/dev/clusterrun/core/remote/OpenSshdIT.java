package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SshNodeShell against a real OpenSSH sshd on 127.0.0.1 (needs root and openssh-server): ed25519
 * host and user keys, a host certificate trusted through {@code @cert-authority}, hashed
 * known_hosts written by ssh-keygen, and the connect cost.
 */
class OpenSshdIT {
  /** The connect deadlines a session's fan-out keeps. */
  static final FanOut DEADLINES = new FanOut(1);

  @TempDir static Path dir;
  static Process sshd;
  static int port;
  static Path userKey;
  static Path hostKey;
  static Path caKey;
  static String user = System.getProperty("user.name");

  static String run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(String.join(" ", argv) + ": " + out).isZero();
    return out;
  }

  @BeforeAll
  static void startSshd() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "openssh-server not installed");
    assumeTrue("root".equals(user), "sshd for tests runs as root");
    Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
    userKey = Keys.keygen(dir, "id_ed25519", "ed25519", "");
    hostKey = Keys.keygen(dir, "host_ed25519", "ed25519", "");
    caKey = Keys.keygen(dir, "ca", "ed25519", "");
    run(
        "ssh-keygen",
        "-q",
        "-s",
        caKey.toString(),
        "-I",
        "testhost",
        "-h",
        "-n",
        "127.0.0.1",
        hostKey + ".pub");
    Files.copy(Path.of(userKey + ".pub"), dir.resolve("authorized_keys"));
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = s.getLocalPort();
    }
    Path cfg = dir.resolve("sshd_config");
    Files.writeString(
        cfg,
        String.join(
            "\n",
            "ListenAddress 127.0.0.1",
            "HostKey " + hostKey,
            "HostCertificate " + hostKey + "-cert.pub",
            "PidFile none",
            "UsePAM no",
            "StrictModes no",
            "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "AllowTcpForwarding yes",
            ""));
    sshd =
        new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", cfg.toString(), "-p", "" + port)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("sshd.log").toFile())
            .start();
    for (int i = 0; i < 200; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(25);
      }
    }
    throw new IllegalStateException(
        "sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
  }

  @AfterAll
  static void stopSshd() throws Exception {
    if (sshd != null) {
      sshd.destroy();
      sshd.waitFor(5, TimeUnit.SECONDS);
    }
  }

  static SshTarget target(Path knownHosts) {
    return SshTarget.of("node1", "127.0.0.1", port, user)
        .withIdentityFiles(List.of(userKey))
        .withIdentityAgent("none")
        .withKnownHosts(List.of(knownHosts), List.of(), KnownHostsPolicy.STRICT, false);
  }

  static Path knownHosts(String name, String content) throws Exception {
    Path kh = dir.resolve(name);
    Files.writeString(kh, content);
    return kh;
  }

  static String hostPub() throws Exception {
    String[] p = Files.readString(Path.of(hostKey + ".pub")).split(" ");
    return p[0] + " " + p[1];
  }

  @Test
  void ed25519KeysAndHashedKnownHostsWork() throws Exception {
    Path kh = knownHosts("kh_hashed", "[127.0.0.1]:" + port + " " + hostPub() + "\n");
    run("ssh-keygen", "-q", "-H", "-f", kh.toString());
    try (SshNodeShell sh = SshNodeShell.connect("node1", target(kh), DEADLINES)) {
      ExecResult r = sh.run("echo \"$0\" >&2; id -un; exit 7", Duration.ofSeconds(10));
      assertThat(r.exitCode()).isEqualTo(7);
      assertThat(r.stdout()).isEqualTo(user + "\n");
      assertThat(r.stderr()).isEqualTo("sh\n");
      // 3 s, not less: the output written before the deadline must be kept, and on a loaded CI
      // machine a fresh channel's first bytes can take a good part of a second.
      ExecResult t = sh.run("echo x; sleep 20", Duration.ofSeconds(3));
      assertThat(t.error()).isEqualTo("node1: timed out after 3 s (command killed)");
      assertThat(t.stdout()).isEqualTo("x\n");
      assertThat(sh.run("true", Duration.ofSeconds(5)).ok()).isTrue();
    }
  }

  @Test
  void hostCertificateIsTrustedThroughCertAuthority() throws Exception {
    // Only the CA is known: the host key itself is not in known_hosts.
    String ca = Files.readString(Path.of(caKey + ".pub")).split(" ")[1];
    Path kh = knownHosts("kh_ca", "@cert-authority [127.0.0.1]:* ssh-ed25519 " + ca + "\n");
    try (SshNodeShell sh = SshNodeShell.connect("node1", target(kh), DEADLINES)) {
      assertThat(sh.run("echo cert", Duration.ofSeconds(10)).stdout()).isEqualTo("cert\n");
    }
    // A CA for other hosts does not vouch for this one.
    Path other = knownHosts("kh_ca_other", "@cert-authority *.example ssh-ed25519 " + ca + "\n");
    assertThatThrownBy(() -> SshNodeShell.connect("node1", target(other), DEADLINES))
        .hasMessageContaining("host key verification failed");
  }

  @Test
  void changedHostKeyIsRefusedNamingTheLine() throws Exception {
    Path other = Keys.keygen(dir, "other_host", "ed25519", "");
    String[] p = Files.readString(Path.of(other + ".pub")).split(" ");
    Path kh = knownHosts("kh_changed", "\n[127.0.0.1]:" + port + " " + p[0] + " " + p[1] + "\n");
    assertThatThrownBy(() -> SshNodeShell.connect("node1", target(kh), DEADLINES))
        .hasMessageStartingWith(
            "node1: host key verification failed: the ssh-ed25519 key of [127.0.0.1]:"
                + port
                + " has CHANGED")
        .hasMessageContaining(kh + ":2");
  }

  /**
   * Ten connections in a row each run {@code true}; what they cost is printed (and kept in target/)
   * as a figure, not asserted: speed is measured by the benchmarks, never by a timed test that a
   * busy machine fails.
   */
  @Test
  void tenConnectionsInARowEachRunTrue() throws Exception {
    Path kh = knownHosts("kh_plain", "[127.0.0.1]:" + port + " " + hostPub() + "\n");
    SshNodeShell.connect("node1", target(kh), DEADLINES).close(); // warm up
    List<Long> ms = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      long t0 = System.nanoTime();
      try (SshNodeShell sh = SshNodeShell.connect("node1", target(kh), DEADLINES)) {
        assertThat(sh.run("true", Duration.ofSeconds(5)).ok()).isTrue();
      }
      ms.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
    Collections.sort(ms);
    String line =
        "connect+true to local OpenSSH sshd, warm JVM: median " + ms.get(5) + " ms, all " + ms;
    Files.writeString(Path.of("target/ssh-connect-cost.txt"), line + "\n");
    System.out.println(line);
    assertThat(ms).hasSize(10);
  }
}
