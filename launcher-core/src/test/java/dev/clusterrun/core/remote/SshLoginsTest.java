package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.ShNodeShell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head's logins script with the real {@code sh} and a stand-in {@code ssh} first on PATH (the
 * real sshd runs in the harness ITs): it records its arguments and fails like OpenSSH does.
 */
class SshLoginsTest {
  @TempDir Path tmp;

  @Test
  void everyNodeIsProbedWithBatchModeAndTheErrorsComeBack() throws Exception {
    Path log = tmp.resolve("argv.log");
    ShNodeShell head =
        headWithSsh(
            "host=$(printf '%s\\n' \"$@\" | tail -n 2 | head -n 1)\n" // word before `true`
                + "case $host in\n"
                + "  good*) exit 0 ;;\n"
                + "  newkey) echo 'Host key verification failed.' >&2; exit 255 ;;\n"
                + "  *\\'*) echo \"odd name: $host\" >&2; exit 255 ;;\n"
                + "  *) echo \"ssh: Could not resolve hostname $host: Name or service not known\" >&2;"
                + " exit 255 ;;\n"
                + "esac\n");
    List<String> nodes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      nodes.add("good" + i);
    }
    nodes.add("newkey");
    nodes.add("nowhere");
    nodes.add("it's");

    SshLogins.Result p = SshLogins.run(head, nodes, Duration.ofSeconds(30), SshLogins.Ask.PLAIN);
    Map<String, SshLogins.Login> r = p.logins();

    assertThat(p.masters()).isNull();
    assertThat(r).hasSize(43);
    assertThat(r.get("good0").ok()).isTrue();
    assertThat(r.get("good39").ok()).isTrue();
    assertThat(r.get("newkey").ok()).isFalse();
    assertThat(r.get("newkey").exitCode()).isEqualTo(255);
    assertThat(r.get("newkey").error()).isEqualTo("Host key verification failed.");
    assertThat(r.get("nowhere").error()).contains("Could not resolve hostname nowhere");
    assertThat(r.get("it's").error()).isEqualTo("odd name: it's");
    assertThat(head.calls).isEqualTo(1);
    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(43);
    assertThat(lines)
        .contains("-n|-o|BatchMode=yes|-o|ConnectTimeout=5|--|newkey|true|")
        .noneMatch(l -> l.contains("StrictHostKeyChecking"));
  }

  @Test
  void aRunsProbeKeepsEachLoginAsAMasterAndClosingEndsThemAndRemovesTheirDirectory()
      throws Exception {
    Path log = tmp.resolve("argv.log");
    ShNodeShell head = headWithSsh("exit 0\n");
    String longName = "n".repeat(SshMasters.MAX_NAME + 1);

    SshLogins.Result p =
        SshLogins.run(
            head, List.of("node2", longName), Duration.ofSeconds(30), SshLogins.Ask.kept(null));

    assertThat(p.logins().get("node2").ok()).isTrue();
    assertThat(p.masters()).startsWith("/dev/shm/clusterrun-ssh.");
    // this ssh leaves no socket behind: no node is reached through a master
    assertThat(p.mastered()).isEmpty();
    Path dir = Path.of(p.masters());
    assertThat(Files.getPosixFilePermissions(dir))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.readAllLines(log))
        .containsExactlyInAnyOrder(
            "-n|-o|ControlMaster=yes|-o|ControlPersist="
                + SshMasters.PERSIST_SECONDS
                + "|-o|ControlPath="
                + dir
                + "/%n|-o|BatchMode=yes|-o|ConnectTimeout=5|--|node2|true|",
            // too long for a socket path: an ordinary login
            "-n|-o|BatchMode=yes|-o|ConnectTimeout=5|--|" + longName + "|true|");
    assertThat(SshMasters.mpirunSshArgs(p.masters()))
        .isEqualTo("-o ControlMaster=no -o ControlPath=" + dir + "/%n");

    // what OpenSSH's master leaves: a socket named after the node
    try (java.nio.channels.ServerSocketChannel master =
        java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      master.bind(java.net.UnixDomainSocketAddress.of(dir.resolve("node2")));
      Files.delete(log);
      SshMasters.closeMasters(head, p.masters(), Duration.ofSeconds(30));
    }
    assertThat(Files.readAllLines(log))
        .containsExactly("-F|/dev/null|-o|ControlPath=" + dir + "/node2|-O|exit|clusterrun|");
    assertThat(dir).doesNotExist();
  }

  @Test
  void theMastersGoWhereTheCallerChoseUnlessThatNameIsTakenAlready() throws Exception {
    ShNodeShell head = headWithSsh("exit 0\n");
    String chosen = SshMasters.newMastersDir();
    assertThat(chosen).matches("/dev/shm/clusterrun-ssh\\.[A-Za-z0-9]{10}");
    assertThat(SshMasters.newMastersDir()).isNotEqualTo(chosen);

    SshLogins.Result p =
        SshLogins.run(head, List.of("node2"), Duration.ofSeconds(30), SshLogins.Ask.kept(chosen));
    try {
      assertThat(p.masters()).isEqualTo(chosen);
      assertThat(Files.getPosixFilePermissions(Path.of(chosen)))
          .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    } finally {
      SshMasters.closeMasters(head, p.masters(), Duration.ofSeconds(30));
    }
    assertThat(Path.of(chosen)).doesNotExist();

    // Someone else's directory of that name is not used (nor touched): mktemp's instead.
    Path taken = Files.createDirectory(Path.of(SshMasters.newMastersDir()));
    try {
      Files.writeString(taken.resolve("theirs"), "x");
      SshLogins.Result q =
          SshLogins.run(
              head, List.of("node2"), Duration.ofSeconds(30), SshLogins.Ask.kept(taken.toString()));
      SshMasters.closeMasters(head, q.masters(), Duration.ofSeconds(30));
      assertThat(q.masters()).startsWith("/dev/shm/clusterrun-ssh.").isNotEqualTo(taken.toString());
      assertThat(taken.resolve("theirs")).hasContent("x");
    } finally {
      Files.deleteIfExists(taken.resolve("theirs"));
      Files.deleteIfExists(taken);
    }
  }

  @Test
  void closingLeavesAnyOtherDirectoryAlone() throws Exception {
    Path victim = Files.createDirectories(tmp.resolve("victim"));
    ShNodeShell head = ShNodeShell.of("head", tmp.toString());
    SshMasters.closeMasters(head, victim.toString(), Duration.ofSeconds(30));
    SshMasters.closeMasters(head, "/dev/shm/clusterrun-ssh.x/../../..", Duration.ofSeconds(30));
    assertThat(victim).exists();
    assertThat(head.calls).isZero();
  }

  @Test
  void noAnswerFromTheHeadIsAnOutcomeForEveryNode() {
    NodeShell head = new DeadShell("head", "connection lost");
    SshLogins.Result p =
        SshLogins.run(
            head,
            List.of("a", "b"),
            Duration.ofSeconds(5),
            SshLogins.Ask.kept(null).running("echo hi"));
    assertThat(p.logins().get("b").ok()).isFalse();
    assertThat(p.logins().get("b").error()).isEqualTo("the head gave no answer: connection lost");
    assertThat(p.first()).isEmpty();
    assertThat(p.masters()).isNull();
  }

  @Test
  void aLoginCarriesItsFirstCommandAndItsOutputComesBackPerNode() throws Exception {
    // The stand-in runs the command it is given as a login would (its last word, through sh),
    // except on `down`, which no login reaches.
    ShNodeShell head =
        headWithSsh(
            "for w in \"$@\"; do host=$cmd; cmd=$w; done\n"
                + "case $host in\n"
                + "  down) echo 'ssh: connect to host down port 22: Connection refused' >&2;"
                + " exit 255 ;;\n"
                + "esac\n"
                + "NODE=$host; export NODE\n"
                + "exec sh -c \"$cmd\"\n");
    String first =
        "printf 'line one on %s\\n' \"$NODE\"\n"
            + "printf \"it's @o-fake 0\\n\"\n" // looks like a frame, is not one
            + "echo oops >&2\n"
            + "printf 'no newline at the end'\n"
            + "exit 3";

    SshLogins.Result p =
        SshLogins.run(
            head,
            List.of("n1", "down", "n'3"),
            Duration.ofSeconds(30),
            SshLogins.Ask.PLAIN.running(first));

    assertThat(p.logins().get("n1").ok()).isTrue();
    assertThat(p.logins().get("n'3").ok()).isTrue();
    assertThat(p.logins().get("down").ok()).isFalse();
    assertThat(p.logins().get("down").exitCode()).isEqualTo(255);
    assertThat(p.logins().get("down").error())
        .isEqualTo("ssh: connect to host down port 22: Connection refused");
    assertThat(p.first()).containsOnlyKeys("n1", "n'3");
    ExecResult n1 = p.first().get("n1");
    assertThat(n1.stdout()).isEqualTo("line one on n1\nit's @o-fake 0\nno newline at the end");
    assertThat(n1.stderr()).isEqualTo("oops\n");
    assertThat(n1.exitCode()).isEqualTo(3);
    assertThat(p.first().get("n'3").stdout()).startsWith("line one on n'3\n");
    assertThat(head.calls).isEqualTo(1);
  }

  @Test
  void linesALoginsStartUpFilesPrintBeforeTheCommandAreNotItsOutput() throws Exception {
    // A .bashrc that echoes on every login, even without a terminal: the login still worked.
    ShNodeShell head =
        headWithSsh(
            "for w in \"$@\"; do cmd=$w; done\n"
                + "echo 'Welcome to the cluster'\n"
                + "echo '@clusterrun-login-not'\n"
                + "exec sh -c \"$cmd\"\n");

    SshLogins.Result p =
        SshLogins.run(
            head, List.of("n1"), Duration.ofSeconds(30), SshLogins.Ask.PLAIN.running("echo facts"));

    assertThat(p.logins().get("n1").ok()).isTrue();
    assertThat(p.first().get("n1").stdout()).isEqualTo("facts\n");
  }

  @Test
  void aLoginThatNeverRanTheCommandIsNoLogin() throws Exception {
    ShNodeShell head = headWithSsh("echo 'Welcome to the cluster'\nexit 0\n");

    SshLogins.Result p =
        SshLogins.run(
            head, List.of("n1"), Duration.ofSeconds(30), SshLogins.Ask.PLAIN.running("echo facts"));

    assertThat(p.logins().get("n1").ok()).isFalse();
    assertThat(p.logins().get("n1").error())
        .startsWith("the login did not run the command it was given")
        .endsWith("; it printed: Welcome to the cluster");
    assertThat(p.first()).isEmpty();
  }

  @Test
  void aSlowNodeHoldsBackNoOtherLogin() throws Exception {
    // More nodes than the window: the slow first node waits (up to 10 s) for the last node's login,
    // which starts only once a slot is free. Batches would start it after the slow node ended.
    Path seen = Files.createDirectories(tmp.resolve("seen"));
    ShNodeShell head =
        headWithSsh(
            "for w in \"$@\"; do host=$cmd; cmd=$w; done\n"
                + "touch "
                + seen
                + "/$host\n"
                + "if [ \"$host\" = slow ]; then\n"
                + "  k=0; while [ $k -lt 100 ] && [ ! -e "
                + seen
                + "/last ]; do sleep 0.1; k=$((k + 1)); done\n"
                + "  [ -e "
                + seen
                + "/last ] && echo 'saw the last login' >&2\n"
                + "fi\n"
                + "exit 0\n");
    List<String> nodes = new java.util.ArrayList<>(List.of("slow"));
    for (int i = 1; i < SshLogins.PARALLEL; i++) {
      nodes.add("n" + i);
    }
    nodes.add("last");

    SshLogins.Result p = SshLogins.run(head, nodes, Duration.ofSeconds(30), SshLogins.Ask.PLAIN);

    assertThat(p.logins().values()).allMatch(SshLogins.Login::ok);
    assertThat(p.logins().get("slow").error()).isEqualTo("saw the last login");
  }

  @Test
  void aCommandThatOutlivesItsTimeIsThatNodesAnswerAndTheLoginStillCounts() throws Exception {
    ShNodeShell head =
        headWithSsh(
            "for w in \"$@\"; do host=$cmd; cmd=$w; done\n"
                + "NODE=$host; export NODE\n"
                + "exec sh -c \"$cmd\"\n");

    SshLogins.Result p =
        SshLogins.run(
            head,
            List.of("hung", "fine"),
            Duration.ofSeconds(1),
            SshLogins.Ask.PLAIN.running("if [ \"$NODE\" = hung ]; then sleep 30; fi; echo done"),
            1);

    assertThat(p.logins().get("hung").ok()).isTrue();
    assertThat(p.first().get("fine").stdout()).isEqualTo("done\n");
    assertThat(p.first().get("hung").error())
        .isEqualTo("hung: timed out after 2 s (command killed)");
    assertThat(head.calls).isEqualTo(1);
  }

  /**
   * The head's shell with a stand-in {@code ssh} first on PATH: it logs its arguments, then BODY.
   */
  private ShNodeShell headWithSsh(String body) throws java.io.IOException {
    return ShNodeShell.headWithSsh(
        tmp,
        // one write per call, so parallel calls cannot interleave their lines
        "line=$(printf '%s|' \"$@\"); printf '%s\\n' \"$line\" >> "
            + tmp.resolve("argv.log")
            + "\n"
            + body);
  }
}
