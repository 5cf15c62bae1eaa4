package dev.clusterrun.core.launch.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.LocalNodeShell;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher for real, with sh and the head's own shell: what ends and what does not. */
class LifelineTest {
  private final String runId =
      "lifeline-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killWhatIsLeft() {
    started.forEach(Process::destroyForcibly);
  }

  private Process sleeper(String id, String... prefix) throws IOException {
    List<String> argv = new ArrayList<>(List.of(prefix));
    argv.addAll(List.of("sleep", "300"));
    ProcessBuilder pb = new ProcessBuilder(argv);
    if (id != null) {
      pb.environment().put(LaunchAgent.RUN_ID_VAR, id);
    }
    Process p = pb.start();
    started.add(p);
    return p;
  }

  /**
   * clusterrun's end closes the pipe: what the watcher sees is the end of its input. It stops the
   * run's processes and appends to the run directory what it stopped.
   */
  @Test
  void theEndOfItsInputStopsEveryProcessOfTheRunAndNothingElse(@TempDir Path runDir)
      throws Exception {
    Process marked = sleeper(runId);
    // In a session and process group of its own, as mpirun puts its ranks and its ssh.
    Process ownGroup = sleeper(runId, "setsid");
    Process otherRun = sleeper(runId + "x");
    Process plain = sleeper(null);
    Path record = Lifeline.record(runDir, "head");
    OutputStream in =
        new LocalNodeShell("head").hold(Lifeline.script(runId, record.toString(), true));
    assertThat(in).as("the head's shell holds a command").isNotNull();
    Thread.sleep(500);
    assertThat(marked.isAlive()).as("nothing stopped while the input is open").isTrue();

    long t0 = System.nanoTime();
    in.close();
    assertThat(marked.waitFor(10, TimeUnit.SECONDS)).as("the run's process").isTrue();
    assertThat(ownGroup.waitFor(10, TimeUnit.SECONDS)).as("the run's process, own group").isTrue();
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(10);
    assertThat(otherRun.isAlive()).as("another run's process").isTrue();
    assertThat(plain.isAlive()).as("a process of no run").isTrue();

    String says = waitForLine(record, "watcher on " + hostname() + ": done");
    assertThat(says)
        .contains("watcher on " + hostname() + ", " + Lifeline.HEAD_ACTED)
        .contains("leftover " + marked.pid() + " sleep 300")
        .contains("leftover " + ownGroup.pid() + " sleep 300")
        .doesNotContain("leftover " + otherRun.pid())
        .doesNotContain("leftover " + plain.pid());
    assertThat(Lifeline.recordsOfAStoppedRun(runDir)).containsExactly(record);
  }

  /**
   * Another node's watcher cannot tell clusterrun's end from a lost connection: it stops the run's
   * processes there and says so, and its record alone does not end the run.
   */
  @Test
  void aNodesRecordAloneDoesNotSayClusterrunEnded(@TempDir Path runDir) throws Exception {
    Process marked = sleeper(runId);
    Path record = Lifeline.record(runDir, "node2");
    OutputStream in =
        new LocalNodeShell("head").hold(Lifeline.script(runId, record.toString(), false));
    in.close();
    assertThat(marked.waitFor(10, TimeUnit.SECONDS)).as("the run's process").isTrue();
    assertThat(waitForLine(record, "watcher on " + hostname() + ": done"))
        .contains(
            "its connection from clusterrun ended (clusterrun ended, or the connection was lost)")
        .contains("leftover " + marked.pid() + " sleep 300");
    assertThat(Lifeline.recordsOfAStoppedRun(runDir)).isEmpty();
  }

  /**
   * A process of the run that SIGTERM ended but that its parent has not reaped (a zombie: here its
   * parent is a {@code sleep}, which reaps nothing; on a node, a busy or stopped parent, or a slow
   * init) has ended: the watcher does not wait for it and names it no survivor.
   */
  @Test
  void aProcessEndedButNotYetReapedIsNoSurvivor(@TempDir Path runDir) throws Exception {
    Process parent =
        new ProcessBuilder(
                "sh",
                "-c",
                "env " + LaunchAgent.RUN_ID_VAR + "=\"$1\" sleep 300 & echo $!; exec sleep 301",
                "sh",
                runId)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(parent);
    String child =
        new java.io.BufferedReader(
                new java.io.InputStreamReader(parent.getInputStream(), StandardCharsets.US_ASCII))
            .readLine();
    Path record = Lifeline.record(runDir, "head");
    OutputStream in =
        new LocalNodeShell("head").hold(Lifeline.script(runId, record.toString(), true));
    Thread.sleep(300);
    in.close();
    String says = waitForLine(record, "watcher on " + hostname() + ": done");
    assertThat(says).contains("leftover " + child + " sleep 300").doesNotContain("survivor");
    assertThat(Files.readString(Path.of("/proc", child, "stat")))
        .as("the child ended and is not reaped")
        .containsPattern("\\) Z ");
    assertThat(parent.isAlive()).as("its parent, of no run").isTrue();
  }

  /** Where the record cannot be written, the watcher still stops the run's processes. */
  @Test
  void aRecordThatCannotBeWrittenStopsNothingLess(@TempDir Path tmp) throws Exception {
    Process marked = sleeper(runId);
    Path nowhere = tmp.resolve("no-such-run-dir").resolve("lifeline-head.log");
    OutputStream in =
        new LocalNodeShell("head").hold(Lifeline.script(runId, nowhere.toString(), true));
    in.close();
    assertThat(marked.waitFor(10, TimeUnit.SECONDS)).as("the run's process").isTrue();
    assertThat(nowhere.getParent()).doesNotExist();
  }

  private static String waitForLine(Path file, String line) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < until) {
      if (Files.exists(file) && Files.readString(file).contains(line)) {
        return Files.readString(file);
      }
      Thread.sleep(100);
    }
    return Files.exists(file) ? Files.readString(file) : "(no " + file + ")";
  }

  private static String hostname() throws Exception {
    Process p = new ProcessBuilder("uname", "-n").start();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
  }

  /** A run that ended in order says so: the watcher exits and stops nothing. */
  @Test
  void aRunThatEndsInOrderStopsNothing(@TempDir Path runDir) throws Exception {
    Process marked = sleeper(runId);
    Lifeline l = Lifeline.tie(Map.of("head", new LocalNodeShell("head")), "head", runId, runDir);
    Thread.sleep(300);
    l.close();
    assertThat(marked.waitFor(4, TimeUnit.SECONDS)).as("stopped after `done`").isFalse();
    assertThat(Lifeline.record(runDir, "head")).as("nothing recorded").doesNotExist();
  }

  /** The script itself carries no marker a search by run id could match. */
  @Test
  void theWatcherIsNoProcessOfTheRun() {
    assertThat(Lifeline.script(runId, "/runs/x/lifeline-head.log", true))
        .doesNotContain(LaunchAgent.RUN_ID_VAR + "=" + runId);
  }

  @Test
  void theScriptAndTheWordsSentWithItAreTheGoldenOnes() {
    GoldenText.assertMatches(
        Lifeline.script(
            "20260102-030405-job-ab12",
            "/ws/runs/20260102-030405-job-ab12/lifeline-node1.log",
            true),
        getClass(),
        "golden/lifeline.expected.txt");
  }

  /**
   * With bash: at the end of its input, a watcher given a run id hostile to the shell runs nothing
   * and stops nothing; a line that only starts with the word {@code done} is no orderly end.
   */
  @Test
  void withBashAHostileRunIdRunsNothingAndStopsNothing(@TempDir Path tmp) throws Exception {
    Path mark = tmp.resolve("pwned");
    Process marked = sleeper(runId);
    ExecResult r =
        BashRun.run(
            Lifeline.script(BashRun.hostile(mark), tmp.resolve("lifeline.log").toString(), true),
            Map.of());
    assertThat(r.exitCode()).isZero();
    assertThat(mark).doesNotExist();
    assertThat(marked.isAlive()).isTrue();

    Process p =
        new ProcessBuilder(
                "bash", "-c", Lifeline.script(runId, tmp.resolve("lifeline.log").toString(), true))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    started.add(p);
    p.getOutputStream().write((Lifeline.DONE + "ne\n").getBytes(StandardCharsets.US_ASCII));
    p.getOutputStream().close();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(marked.waitFor(10, TimeUnit.SECONDS)).as("stopped: no orderly end").isTrue();
  }
}
