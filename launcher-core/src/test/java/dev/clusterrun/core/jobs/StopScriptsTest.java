package dev.clusterrun.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.remote.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripts of {@code stop} ({@code stop-signal.sh}, {@code stop-check.sh}): pinned to golden
 * files, and run with bash and the real /proc of this machine.
 */
class StopScriptsTest {
  private static final String RUN = "20260102-030405-job-ab12";

  @TempDir Path tmp;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killWhatIsLeft() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void theScriptsAndTheWordsSentWithThemAreTheGoldenOnes() {
    GoldenText.assertMatches(
        JobsFlow.signalScript(RUN, "INT"), getClass(), "golden/stop-signal.expected.txt");
    GoldenText.assertMatches(
        JobsFlow.checkScript(RUN), getClass(), "golden/stop-check.expected.txt");
  }

  /**
   * A process named {@code mpirun} (bash under that name) with the run id, which writes the signal
   * it gets to {@code got} and ends; its one child carries no run id.
   */
  private Process mpirun(String runId) throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path mpirun = bin.resolve("mpirun");
    if (!Files.exists(mpirun)) {
      Files.copy(Path.of("/bin/bash"), mpirun);
    }
    String got = tmp.resolve("got").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            mpirun.toString(),
            "-c",
            "for s in USR1 USR2 TERM; do trap \"echo $s > '"
                + got
                + "'; kill \\$!; exit 0\" $s; done; env -u CLUSTERRUN_RUN_ID sleep 60 & wait");
    pb.environment().put("CLUSTERRUN_RUN_ID", runId);
    Process p = pb.start();
    started.add(p);
    return p;
  }

  /**
   * With bash: the signal reaches the run's mpirun by name, an odd run id (a leading dash, dots)
   * arrives exactly, and the last round finds none of the run left.
   */
  @Test
  void withBashTheSignalAndAnOddRunIdArriveExactly() throws Exception {
    String odd = "-n.-" + UUID.randomUUID().toString().replace("-", "");
    Process mp = mpirun(odd);
    Process longer = mpirun(odd + "x");
    Thread.sleep(300);

    ExecResult check = BashRun.run(JobsFlow.checkScript(odd), Map.of());
    assertThat(check.stdout()).isEqualTo(mp.pid() + "\n");

    ExecResult r = BashRun.run(JobsFlow.signalScript(odd, "USR2"), Map.of());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("found 1\nsignalled " + mp.pid() + "\n");
    assertThat(mp.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(Files.readString(tmp.resolve("got"))).isEqualTo("USR2\n");
    assertThat(longer.isAlive()).isTrue();

    ExecResult after = BashRun.run(JobsFlow.checkScript(odd), Map.of());
    assertThat(after.exitCode()).isZero();
    assertThat(after.stdout()).isEqualTo("\n");
  }

  /** With bash: a run id or a signal hostile to the shell is a value, never code. */
  @Test
  void withBashHostileWordsRunNothing() throws Exception {
    Path mark = tmp.resolve("pwned");
    String hostile = BashRun.hostile(mark);
    ExecResult r = BashRun.run(JobsFlow.signalScript(hostile, hostile), Map.of());
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("found 0\n");
    ExecResult check = BashRun.run(JobsFlow.checkScript(hostile), Map.of());
    assertThat(check.exitCode()).isZero();
    assertThat(check.stdout()).isEqualTo("\n");

    // The run's mpirun gets exactly the word given, and a hostile one is no signal.
    String odd = "r" + UUID.randomUUID().toString().replace("-", "");
    Process mp = mpirun(odd);
    Thread.sleep(300);
    ExecResult none = BashRun.run(JobsFlow.signalScript(odd, "USR1 " + hostile), Map.of());
    assertThat(none.stdout()).startsWith("found 1\nsignalled " + mp.pid() + "\n");
    assertThat(mp.isAlive()).isTrue();
    assertThat(mark).doesNotExist();
  }
}
