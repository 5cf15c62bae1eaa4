package dev.clusterrun.core.launch.proof;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.GoldenText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonProofTest {
  record Ran(int code, String out, String err) {}

  /** Runs the proof script with the real sh of this machine, as the agent runs it. */
  static Ran runScript(Path dir, String script, Map<String, String> env, String... cmd)
      throws IOException, InterruptedException {
    Path f = dir.resolve(DaemonProof.FILE);
    Files.writeString(f, script);
    List<String> argv = new java.util.ArrayList<>(List.of("/bin/sh", f.toString()));
    argv.addAll(List.of(cmd));
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().remove("CLUSTERRUN_RUN_ID");
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new Ran(p.exitValue(), out, err);
  }

  static String ownNamespace() throws IOException {
    return Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")).toString();
  }

  static String hostname() throws IOException {
    return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
  }

  @Test
  void withTheRunIdAndTheMountsTheScriptLeavesItsProofAndExecsTheDaemon(@TempDir Path tmp)
      throws Exception {
    // "/" is a mount point wherever this test runs.
    String script = DaemonProof.script("RUN-1", List.of("/"));
    Ran r = runScript(tmp, script, Map.of("CLUSTERRUN_RUN_ID", "RUN-1"), "echo", "daemon", "ran");
    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo("daemon ran\n");
    assertThat(r.err())
        .isEqualTo("clusterrun-proof RUN-1 " + hostname() + " " + ownNamespace() + " ok\n");
    DaemonProof.Line l = DaemonProof.parse(r.err());
    assertThat(l).isEqualTo(new DaemonProof.Line("RUN-1", hostname(), ownNamespace(), null, false));
  }

  @Test
  void aDaemonThatJoinedAContainerBegunDuringTheChecksSaysSoAndTheMarkGoesNoFurther(
      @TempDir Path tmp) throws Exception {
    String script = DaemonProof.script("RUN-1", List.of("/"));
    Ran r =
        runScript(
            tmp,
            script,
            Map.of("CLUSTERRUN_RUN_ID", "RUN-1", "CLUSTERRUN_JOINED", "1"),
            "sh",
            "-c",
            "echo \"joined=${CLUSTERRUN_JOINED-unset}\"");
    assertThat(r.code()).isZero();
    // The daemon (and the ranks it forks) never see the mark.
    assertThat(r.out()).isEqualTo("joined=unset\n");
    assertThat(r.err()).endsWith(" ok joined\n");
    assertThat(DaemonProof.parse(r.err()))
        .isEqualTo(new DaemonProof.Line("RUN-1", hostname(), ownNamespace(), null, true));
  }

  @Test
  void withoutTheRunIdOrAMountTheScriptSaysWhyAndNeverStartsTheDaemon(@TempDir Path tmp)
      throws Exception {
    String script = DaemonProof.script("RUN-1", List.of("/", "/no-such-mount-here"));
    Ran r = runScript(tmp, script, Map.of("CLUSTERRUN_RUN_ID", "OTHER"), "echo", "daemon");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.out()).isEmpty();
    DaemonProof.Line l = DaemonProof.parse(r.err());
    assertThat(l.problem())
        .isEqualTo("CLUSTERRUN_RUN_ID is 'OTHER'; /no-such-mount-here is not mounted");

    Ran unset = runScript(tmp, script.replace("/no-such-mount-here", "/"), Map.of(), "true");
    assertThat(unset.code()).isEqualTo(3);
    assertThat(DaemonProof.parse(unset.err()).problem()).isEqualTo("CLUSTERRUN_RUN_ID is ''");
  }

  @Test
  void theScriptAndTheWordsItIsWrittenWithAreTheGoldenOnes() {
    GoldenText.assertMatches(
        DaemonProof.script("20260102-030405-job-ab12", List.of("/data", "/it's $(x)", "")),
        getClass(),
        "golden/agent-proof.expected.txt");
  }

  @Test
  void withBashHostileWordsArriveAsWordsAndTheDaemonGetsItsOwnArguments(@TempDir Path tmp)
      throws Exception {
    // The script runs in the test's working directory: a word run as a command would leave this.
    String mark = "clusterrun-pwned-" + tmp.getFileName();
    String evil = "r'1 $(touch " + mark + ") `touch " + mark + "` \"q\" \\ *";
    Path mount = Files.createDirectories(tmp.resolve("m " + evil));
    String script = DaemonProof.script(evil, List.of("/", mount.toString()));
    Path f = tmp.resolve(DaemonProof.FILE);
    Files.writeString(f, script);
    ProcessBuilder pb =
        new ProcessBuilder("bash", f.toString(), "printf", "<%s>", "a b", "$(x)", "");
    pb.environment().put("CLUSTERRUN_RUN_ID", evil);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    // The directory is no mount point: the proof fails, naming it, and the daemon never starts.
    assertThat(p.exitValue()).isEqualTo(3);
    assertThat(out).isEmpty();
    assertThat(err)
        .isEqualTo(
            "clusterrun-proof "
                + evil
                + " "
                + hostname()
                + " "
                + ownNamespace()
                + " fail "
                + mount
                + " is not mounted;\n");
    Ran ok =
        runScript(
            tmp,
            DaemonProof.script(evil, List.of("/")),
            Map.of("CLUSTERRUN_RUN_ID", evil),
            "printf",
            "<%s>",
            "a b",
            "$(x)",
            "");
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).isEqualTo("<a b><$(x)><>");
    assertThat(Path.of(mark)).doesNotExist();
  }

  private static Map<String, DaemonProof.Node> threeNodes() {
    Map<String, DaemonProof.Node> n = new LinkedHashMap<>();
    n.put("node1", new DaemonProof.Node("h1", "mnt:[1]", false));
    n.put("node2", new DaemonProof.Node("h2", "mnt:[2]", true));
    n.put("node3", new DaemonProof.Node("h3", "mnt:[3]", true));
    return n;
  }

  @Test
  void theTallyWantsOneProofFromEveryNodeButMpirunsOwn() {
    DaemonProof.Tally t = runTally();
    assertThat(t.proven()).isFalse();
    assertThat(t.missing()).containsExactly("node2", "node3");
    t.add(new DaemonProof.Line("RUN", "h2", "mnt:[9]", null, false));
    assertThat(t.missing()).containsExactly("node3");
    assertThat(t.failure(false)).isNull();
    t.add(new DaemonProof.Line("RUN", "h3", "mnt:[8]", null, false));
    assertThat(t.proven()).isTrue();
    assertThat(t.proofs())
        .extracting(DaemonProof.NodeProof::node)
        .containsExactly("node2", "node3");
  }

  @Test
  void theJobsOwnHostListDecidesWhichDaemonsMustProveThemselves() {
    assertThat(DaemonProof.chosenHosts(List.of("--bind-to", "none", "--map-by", "ppr:2:node")))
        .isNull();
    assertThat(DaemonProof.chosenHosts(List.of("--host", "node1,node2:2")))
        .containsExactly("node1", "node2");
    assertThat(DaemonProof.chosenHosts(List.of("-H", "node3", "--host=node2:4,node3")))
        .containsExactly("node3", "node2");
    assertThat(DaemonProof.chosenHosts(List.of("--host", "node2", "--rankfile", "rf"))).isEmpty();
    assertThat(DaemonProof.chosenHosts(List.of("--hostfile=/app/other-hosts"))).isEmpty();

    // `--host node1,node2`: Open MPI starts no daemon on node3, so none is waited for there.
    Map<String, DaemonProof.Node> n = new LinkedHashMap<>();
    n.put("node1", new DaemonProof.Node("h1", "mnt:[1]", false, false));
    n.put("node2", new DaemonProof.Node("h2", "mnt:[2]", true, true));
    n.put("node3", new DaemonProof.Node("h3", "mnt:[3]", true, false));
    DaemonProof.Tally t = new DaemonProof.Tally(n, "RUN");
    assertThat(t.missing()).containsExactly("node2");
    t.add(new DaemonProof.Line("RUN", "h2", "mnt:[9]", null, false));
    assertThat(t.proven()).isTrue();
    assertThat(t.failure(true)).isNull();
    // A daemon that does start on a node not required still proves itself, or fails the run.
    t.add(new DaemonProof.Line("RUN", "h3", "mnt:[3]", null, false));
    assertThat(t.failure(true))
        .isEqualTo(
            "node3: the daemon ran OUTSIDE the container, in the node's own mount namespace");
  }

  @Test
  void aDaemonInItsNodesOwnNamespaceOrOfAnotherRunOrFromAnUnknownHostFails() {
    DaemonProof.Tally t = runTally();
    t.add(new DaemonProof.Line("RUN", "h2", "mnt:[2]", null, false));
    assertThat(t.failed()).isTrue();
    assertThat(t.failure(false))
        .isEqualTo(
            "node2: the daemon ran OUTSIDE the container, in the node's own mount namespace");
    DaemonProof.Tally other = runTally();
    other.add(new DaemonProof.Line("RUN2", "h3", "mnt:[7]", null, false));
    other.add(new DaemonProof.Line("RUN", "stranger", "mnt:[7]", null, false));
    assertThat(other.failure(false))
        .isEqualTo(
            "node3: the daemon proved another run (RUN2); stranger: a daemon started on a host"
                + " clusterrun does not know");
  }

  @Test
  void aNodeWithoutProofWhenMpirunEndedIsNamed() {
    DaemonProof.Tally t = runTally();
    t.add(new DaemonProof.Line("RUN", "h2", "mnt:[9]", null, false));
    assertThat(t.failure(true))
        .startsWith(
            "node3: no proof from its daemon: another hook or setting replaces clusterrun's"
                + " launch agent, or the daemon never started, and no node said why");
  }

  /**
   * A daemon that never started because its node's {@code enroot start} failed is named with the
   * node's own error, never as a foreign launch agent; enroot's rootfs lock gets its cause and fix.
   */
  @Test
  void aDaemonThatNeverStartedIsNamedWithItsNodesOwnErrorAndTheRootfsLockWithItsFix()
      throws IOException {
    DaemonProof.Tally t = runTally();
    ProofGate g = new ProofGate(t, () -> {});
    OutputStream err = g.err(new ByteArrayOutputStream(), new ByteArrayOutputStream());
    write(err, "clusterrun-proof RUN h2 mnt:[9] ok\n");
    write(err, "[ERROR] Could not acquire rootfs lock\n--------------------\n");
    write(err, "ORTE was unable to reliably start one or more daemons.\n");
    String f = t.failure(true);
    assertThat(f)
        .startsWith(
            "node3: no proof from its daemon; what the nodes said on mpirun's standard error"
                + " (which names no node): `[ERROR] Could not acquire rootfs lock`. enroot"
                + " could not acquire the container's rootfs lock")
        .contains("ROOTFS/.lock, 30 s at most")
        .contains("Fix: give the job a name (--container-name)")
        .doesNotContain("replaces clusterrun's launch agent")
        .doesNotContain("ORTE was unable");

    DaemonProof.Tally other = runTally();
    for (int i = 0; i < 3; i++) {
      other.heard("bash: line 1: orted: command not found");
    }
    assertThat(other.failure(true))
        .isEqualTo(
            "node2, node3: no proof from their daemons; what the nodes said on mpirun's standard"
                + " error (which names no node): `bash: line 1: orted: command not found` (3"
                + " times)");
  }

  @Test
  void theGateHoldsOutputUntilEveryDaemonProvedItselfAndTakesProofLinesOut() throws IOException {
    DaemonProof.Tally t = runTally();
    int[] proven = {0};
    ProofGate g = new ProofGate(t, () -> proven[0]++);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    ByteArrayOutputStream consoleErr = new ByteArrayOutputStream();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    ByteArrayOutputStream errLog = new ByteArrayOutputStream();
    OutputStream out = g.out(console, log);
    OutputStream err = g.err(consoleErr, errLog);
    write(err, "clusterrun-proof RUN h2 mnt:[9] ok\nwarning: x\n");
    write(out, "h1\n");
    assertThat(console.size()).isZero();
    assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo("h1\n");
    assertThat(g.firstHeld()).isPositive();
    // A proof line may come in pieces.
    write(err, "clusterrun-pr");
    write(err, "oof RUN h3 mnt:[8] ok\n");
    assertThat(g.opened()).isTrue();
    assertThat(proven[0]).isEqualTo(1);
    assertThat(console.toString(StandardCharsets.UTF_8)).isEqualTo("h1\n");
    assertThat(consoleErr.toString(StandardCharsets.UTF_8)).isEqualTo("warning: x\n");
    write(out, "h2\n");
    write(err, "clusterrun-x\npartial");
    err.close();
    assertThat(console.toString(StandardCharsets.UTF_8)).isEqualTo("h1\nh2\n");
    assertThat(consoleErr.toString(StandardCharsets.UTF_8))
        .isEqualTo("warning: x\nclusterrun-x\npartial");
    assertThat(errLog.toString(StandardCharsets.UTF_8)).doesNotContain("clusterrun-proof");
  }

  @Test
  void mpirunsOwnWarningsAreHeldButOnlyRanksOutputStartsTheWaitForProof() throws IOException {
    DaemonProof.Tally t = runTally();
    ProofGate g = new ProofGate(t, () -> {});
    ByteArrayOutputStream consoleErr = new ByteArrayOutputStream();
    ByteArrayOutputStream errLog = new ByteArrayOutputStream();
    OutputStream out = g.out(new ByteArrayOutputStream(), new ByteArrayOutputStream());
    OutputStream err = g.err(consoleErr, errLog);
    // Open MPI on a busy head while 63 daemons are still starting: no rank has printed yet.
    write(err, "[node1:19177] plm:rsh: Warning: setpgid(19256,19256) failed in parent with");
    write(err, " errno=Permission denied(13)\n[node1:19177] plm:rsh: Warning: again\n");
    assertThat(g.firstHeld()).isEqualTo(-1);
    assertThat(consoleErr.size()).isZero();
    assertThat(errLog.toString(StandardCharsets.UTF_8)).startsWith("[node1:19177] plm:rsh");
    // A rank's line does, on either stream.
    write(err, "rank 0: starting\n");
    assertThat(g.firstHeld()).isPositive();
    long first = g.firstHeld();
    write(out, "h1\n");
    assertThat(g.firstHeld()).isEqualTo(first);
    write(err, "clusterrun-proof RUN h2 mnt:[9] ok\nclusterrun-proof RUN h3 mnt:[8] ok\n");
    assertThat(g.opened()).isTrue();
    assertThat(consoleErr.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "[node1:19177] plm:rsh: Warning: setpgid(19256,19256) failed in parent with"
                + " errno=Permission denied(13)\n[node1:19177] plm:rsh: Warning: again\n"
                + "rank 0: starting\n");
  }

  @Test
  void whenTheProofFailsTheJobsOutputNeverReachesThePersonButMpirunsErrorsDo() throws IOException {
    DaemonProof.Tally t = runTally();
    ProofGate g = new ProofGate(t, () -> {});
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    ByteArrayOutputStream consoleErr = new ByteArrayOutputStream();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    OutputStream out = g.out(console, log);
    OutputStream err = g.err(consoleErr, new ByteArrayOutputStream());
    write(out, "h1\nh2\n");
    write(err, "mpirun: daemon died\n");
    g.close(consoleErr);
    write(out, "h3\n");
    assertThat(console.size()).isZero();
    assertThat(consoleErr.toString(StandardCharsets.UTF_8)).isEqualTo("mpirun: daemon died\n");
    assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo("h1\nh2\nh3\n");
  }

  @Test
  void withNoDaemonToProveTheGateIsOpenFromTheStart() {
    Map<String, DaemonProof.Node> one = Map.of("node1", new DaemonProof.Node("h1", "m", false));
    int[] proven = {0};
    ProofGate g = new ProofGate(new DaemonProof.Tally(one, "RUN"), () -> proven[0]++);
    assertThat(g.opened()).isTrue();
    assertThat(proven[0]).isEqualTo(1);
  }

  private static void write(OutputStream s, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    s.write(b, 0, b.length);
  }

  /** The tally of run RUN on the three nodes, nothing proven yet. */
  private static DaemonProof.Tally runTally() {
    return new DaemonProof.Tally(threeNodes(), "RUN");
  }
}
