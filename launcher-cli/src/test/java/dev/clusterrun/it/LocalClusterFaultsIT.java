package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.JobUser;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The faults of real clusters the local cluster can make, shown with real OpenSSH and Debian's Open
 * MPI on three nodes that all carry Docker's bridge ({@code docker0} 172.17.0.1/16): a wrong
 * interface chosen by Open MPI, a node lost without a reset ({@code cluster.sh cut}), and two job
 * users at once. These tests prove the test world, so that the product's tests can rely on it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterFaultsIT {
  @RegisterExtension
  static LocalClusterExtension CLUSTER =
      new LocalClusterExtension(3, LocalCluster.Options.DEFAULT.withDockerBridge());

  static LocalCluster c;

  /** A hung Open MPI job is stopped after this; a passing one takes 1 to 3 s here. */
  static final int MPI_TIMEOUT_SECONDS = 20;

  static String hosts;
  static String ring;

  @BeforeAll
  static void ringProgramAndHostfileInTheSharedDir() {
    c = CLUSTER.cluster();
    hosts = CLUSTER.shared() + "/faults-hosts";
    ring = CLUSTER.shared() + "/ring";
    c.writeAsJobUser(hosts, c.hostfile(1));
    Runs.compileRing(c, CLUSTER.shared());
  }

  /** {@code ssh -o BatchMode=yes -o StrictHostKeyChecking=yes ARGS} as {@code user} on node1. */
  static Result sshAs(JobUser user, String... args) {
    List<String> cmd =
        new ArrayList<>(List.of("ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes"));
    cmd.addAll(List.of(args));
    return c.execAs(user, "node1", null, LocalCluster.DEFAULT_TIMEOUT, cmd);
  }

  /** mpirun of the ring program on all three nodes (one rank each), as {@code user} on node1. */
  static Result ringAs(JobUser user, String... mca) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "timeout",
                Integer.toString(MPI_TIMEOUT_SECONDS),
                "mpirun",
                "--hostfile",
                hosts,
                "-np",
                "3"));
    cmd.addAll(List.of(mca));
    cmd.add(ring);
    return c.execAs(user, "node1", null, Duration.ofSeconds(MPI_TIMEOUT_SECONDS + 30), cmd);
  }

  /** The three ranks of ring, one per node, all with the right data. */
  static void assertRingPassed(Result r) {
    ok(r);
    Pattern line =
        Pattern.compile("rank=(\\d) size=3 host=(node\\d) mntns=\\S+ ring=(\\d) allreduce=6 ok=1");
    List<String> hostsSeen = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      Matcher m = line.matcher(l);
      if (m.matches()) {
        assertThat(Integer.parseInt(m.group(3)))
            .as(l)
            .isEqualTo((Integer.parseInt(m.group(1)) + 2) % 3);
        hostsSeen.add(m.group(2));
      }
    }
    assertThat(hostsSeen).as("%s", r).containsExactlyInAnyOrder("node1", "node2", "node3");
  }

  /**
   * Waits until no process of the job user named {@code comm} runs any more (the nodes share the
   * machine's PID space), killing what is left after a while by PID: a job stopped by timeout must
   * not disturb the next test.
   */
  static void awaitNoProcesses(JobUser user, String... comms) throws InterruptedException {
    String list = String.join(",", comms);
    for (int i = 0; i < 150; i++) {
      Result ps =
          c.exec("node1", true, "sh", "-c", "ps -u " + user.name() + " -o pid=,comm= || true");
      List<String> pids = new ArrayList<>();
      for (String l : ps.stdout().split("\n")) {
        String[] f = l.strip().split("\\s+");
        if (f.length == 2 && List.of(comms).contains(f[1])) {
          pids.add(f[0]);
        }
      }
      if (pids.isEmpty()) {
        return;
      }
      if (i == 100) {
        List<String> kill = new ArrayList<>(List.of("kill", "-KILL"));
        kill.addAll(pids);
        c.exec("node1", true, kill.toArray(String[]::new));
      }
      Thread.sleep(200);
    }
    throw new AssertionError(list + " of " + user.name() + " still run");
  }

  // ----------------------------------------------------------------------------------------------
  // Docker's bridge

  @Test
  @Order(1)
  void everyNodeCarriesDockersBridgeWithTheSameAddressBesideItsOwnClusterAddress() {
    assertThat(c.dockerBridge()).contains("docker0 172.17.0.1/16");
    for (String node : c.nodes()) {
      String addrs = ok(c.exec(node, "ip", "-o", "-4", "addr", "show")).stdout();
      assertThat(addrs).as(node).containsPattern("docker0\\s+inet 172\\.17\\.0\\.1/16");
      assertThat(addrs)
          .as(node)
          .contains("inet " + c.address(node) + "/" + c.subnet().split("/")[1]);
      // Up (IFF_UP), which is all Open MPI looks at; no carrier with no container, as on a node.
      assertThat(ok(c.exec(node, "ip", "-o", "link", "show", "docker0")).out())
          .as(node)
          .containsPattern("<[A-Z_,]*\\bUP\\b[A-Z_,]*>");
    }
  }

  @Test
  @Order(2)
  void openMpiWithoutInterfaceSelectionFailsOrHangsOnDockersBridge() throws Exception {
    JobUser u = c.user1();
    // Nothing selects an interface for this user: no MCA file (SetupRunIT writes one for its own
    // cluster), and `exec` starts from an empty environment, so no OMPI_MCA_* either.
    assertThat(u.home().resolve(".openmpi/mca-params.conf")).doesNotExist();
    assertThat(ok(c.execAs(u, "node1", "env")).stdout()).doesNotContain("OMPI_MCA_");

    Result r = ringAs(u);
    // Each node reaches 172.17.0.1, its own docker0, for a peer's address: the connection lands
    // at a rank of its own node, which refuses the stranger, and the ring never completes.
    assertThat(r.exitCode()).as("%s", r).isNotZero();
    assertThat(r.stdout() + r.stderr())
        .as("%s", r)
        .containsAnyOf(
            "cannot find a corresponding process",
            "received unexpected process identifier",
            "connect() to 172.17.0.1");
    awaitNoProcesses(u, "ring", "orted", "mpirun");
  }

  @Test
  @Order(3)
  void openMpiOnTheClusterNetworkPassesDespiteDockersBridge() throws Exception {
    JobUser u = c.user1();
    assertRingPassed(ringAs(u, Runs.mcaOnClusterNetwork(c).toArray(String[]::new)));
    awaitNoProcesses(u, "ring", "orted", "mpirun");
  }

  // ----------------------------------------------------------------------------------------------
  // Two job users

  @Test
  @Order(4)
  void theSecondJobUserHasItsOwnUidKeyAndKnownHostsOnEveryNode() {
    JobUser one = c.user1();
    JobUser two = c.user2();
    assertThat(two.uid()).isNotEqualTo(one.uid());
    assertThat(two.home()).isNotEqualTo(one.home());
    for (String node : c.nodes()) {
      assertThat(ok(c.execAs(two, node, "id", "-u")).out()).as(node).isEqualTo("" + two.uid());
      // By name, with strict host keys, from its own known_hosts.
      Result r =
          sshAs(two, "-o", "UserKnownHostsFile=" + two.knownHosts(), node, "id -un; hostname");
      assertThat(ok(r).out()).isEqualTo(two.name() + "\n" + node);
    }
    // Its own key: the first user's key does not open the second user's account.
    Result foreign = sshAs(one, two.name() + "@node2", "true");
    assertThat(foreign.exitCode()).as("%s", foreign).isNotZero();
    assertThat(foreign.stderr()).contains("Permission denied");
  }

  @Test
  @Order(5)
  void twoUsersRunMpiJobsOnTheSameNodesAtOnce() throws Exception {
    String[] mca = Runs.mcaOnClusterNetwork(c).toArray(String[]::new);
    CompletableFuture<Result> one = CompletableFuture.supplyAsync(() -> ringAs(c.user1(), mca));
    CompletableFuture<Result> two = CompletableFuture.supplyAsync(() -> ringAs(c.user2(), mca));
    assertRingPassed(one.get());
    assertRingPassed(two.get());
  }

  // ----------------------------------------------------------------------------------------------
  // A node lost without a reset

  /** Starts, from node1, an SSH session to node3 that prints a line every 200 ms. */
  static long[] startStream(String file) {
    Result r =
        ok(
            c.sh(
                "node1",
                "ssh -o BatchMode=yes node3 'echo remote=$$; while :; do date +%s%N; sleep 0.2; done'"
                    + " > "
                    + file
                    + " 2>&1 < /dev/null & echo $!"));
    long sshPid = Long.parseLong(r.out());
    for (int i = 0; i < 100; i++) {
      String text = ok(c.exec("node1", "cat", file)).stdout();
      Matcher m = Pattern.compile("remote=(\\d+)\\n\\d+\\n").matcher(text);
      if (m.find()) {
        return new long[] {sshPid, Long.parseLong(m.group(1))};
      }
      sleep(100);
    }
    throw new AssertionError("the stream did not start: " + c.exec("node1", "cat", file));
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static int lines(String node, String file) {
    return ok(c.exec(node, "cat", file)).stdout().split("\n").length;
  }

  /** A new TCP connection from {@code from} to {@code to}:22, given {@code seconds} to succeed. */
  static Result connect(String from, String to, int seconds) {
    return c.exec(
        from,
        "timeout",
        Integer.toString(seconds),
        "bash",
        "-c",
        "exec 3<>/dev/tcp/" + to + "/22 && head -c 7 <&3");
  }

  @Test
  @Order(6)
  void aCutNodeHangsEveryConnectionWithoutResetWhileItsProcessesKeepRunning() throws Exception {
    assertThat(ok(connect("node1", "node3", 5)).out()).isEqualTo("SSH-2.0");
    String file = "/tmp/faults-stream";
    long[] pids = startStream(file);
    long ssh = pids[0];
    long remote = pids[1];
    c.cut("node3");
    try {
      assertThat(ok(c.cluster("status")).stdout()).containsPattern("node3 .*CUT");
      sleep(1000);
      int before = lines("node1", file);

      // A new connection hangs: no RST (Connection refused), no ICMP (No route to host).
      long t0 = System.nanoTime();
      Result fresh = connect("node2", "node3", 6);
      double took = (System.nanoTime() - t0) / 1e9;
      assertThat(fresh.exitCode()).as("%s", fresh).isEqualTo(124);
      assertThat(fresh.stderr()).doesNotContain("refused").doesNotContain("No route");
      assertThat(took).isGreaterThanOrEqualTo(6.0);
      // Nor can the cut node reach anyone.
      assertThat(connect("node3", "node1", 3).exitCode()).isEqualTo(124);

      // The established session neither gets data nor an error: it just waits, as ssh does.
      assertThat(lines("node1", file)).isEqualTo(before);
      assertThat(ok(c.exec("node1", "cat", file)).stdout()).doesNotContain("closed");
      assertThat(LocalClusterIT.running(ssh)).as("ssh on node1").isTrue();
      // On the cut node the session's command keeps running.
      assertThat(LocalClusterIT.running(remote)).as("the command on node3").isTrue();
    } finally {
      c.uncut("node3");
    }
    assertThat(ok(c.cluster("status")).stdout()).doesNotContain("CUT");
    assertThat(ok(connect("node2", "node3", 5)).out()).isEqualTo("SSH-2.0");
    // The session survived and resumes (after TCP's retransmission back-off).
    int after = lines("node1", file);
    for (int i = 0; i < 60 && lines("node1", file) == after; i++) {
      sleep(1000);
    }
    assertThat(lines("node1", file)).isGreaterThan(after);
    c.exec("node1", "kill", Long.toString(ssh));
  }

  /**
   * First of all tests: node3 has never talked to node2, so it has no neighbour entry to let age
   * (one that was recently confirmed stays trusted for up to ~45 s, then is probed for ~8 s).
   */
  @Test
  @Order(0)
  void aCutNodeWithArpFailsNewConnectionsOnlyAfterArpGivesUpAndStillSendsNoReset() {
    c.cut("node2", true);
    try {
      assertThat(ok(c.cluster("status")).stdout()).containsPattern("node2 .*CUT \\(arp\\)");
      long t0 = System.nanoTime();
      Result fresh = connect("node3", "node2", 15);
      double took = (System.nanoTime() - t0) / 1e9;
      // As a dead host on the same Ethernet segment: the kernel gives up on ARP, no RST.
      assertThat(fresh.exitCode()).as("%s", fresh).isNotZero().isNotEqualTo(124);
      assertThat(fresh.stderr()).contains("No route to host").doesNotContain("refused");
      assertThat(took).isGreaterThanOrEqualTo(1.0).isLessThan(15.0);
    } finally {
      c.uncut("node2");
    }
    assertThat(ok(connect("node3", "node2", 10)).out()).isEqualTo("SSH-2.0");
  }

  @Test
  @Order(100)
  void downIsExactWithANodeStillCut() throws IOException {
    LocalCluster c = CLUSTER.cluster();
    c.cut("node2");
    JobUser two = c.user2();
    c.down();
    assertThat(LocalClusterIT.hostCommand("ip", "netns", "list")).doesNotContain("crlc-");
    assertThat(LocalClusterIT.hostCommand("ip", "-o", "link", "show")).doesNotContain("crlc");
    assertThat(LocalClusterIT.hostCommand("ip", "neigh", "show")).doesNotContain("10.213.77.");
    assertThat(LocalClusterIT.hostCommand("getent", "passwd", two.name())).isEmpty();
    assertThat(two.home()).doesNotExist();
    assertThat(Files.exists(c.stateDir())).isFalse();
  }
}
