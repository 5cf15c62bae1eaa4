package dev.clusterrun.core.launch.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class RemoteReaperTest {
  /** Runs scripts with the real sh on this machine. */
  public static final class ShShell implements NodeShell {
    @Override
    public String node() {
      return "local";
    }

    @Override
    public ExecResult run(String script, Duration timeout) {
      try {
        return dev.clusterrun.core.BashRun.sh(script);
      } catch (IOException | InterruptedException e) {
        return ExecResult.failed(e.toString(), Duration.ZERO);
      }
    }

    @Override
    public void close() {}
  }

  static Process startMarked(String runId, String... cmd) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("CLUSTERRUN_RUN_ID", runId);
    return pb.start();
  }

  @Test
  void killsOnlyTheProcessesOfThisRunByPid() throws Exception {
    // Run ids unique to this test run: other builds on the machine may run this test too.
    String a = "run-a-" + java.util.UUID.randomUUID();
    String b = "run-b-" + java.util.UUID.randomUUID();
    Process mine = startMarked(a, "sleep", "60");
    Process other = startMarked(b, "sleep", "60");
    Process ignoresTerm = startMarked(a, "sh", "-c", "trap '' TERM; sleep 60 & wait");
    Thread.sleep(200);
    try {
      RemoteReaper.Reaped o = RemoteReaper.reap(new ShShell(), a, Duration.ofSeconds(20));
      assertThat(o.error()).isNull();
      assertThat(o.leftovers())
          .extracting(RemoteReaper.Leftover::pid)
          .contains(mine.pid(), ignoresTerm.pid())
          .doesNotContain(other.pid());
      assertThat(o.leftovers())
          .filteredOn(l -> l.pid() == ignoresTerm.pid())
          .singleElement()
          .satisfies(l -> assertThat(l.neededKill()).isTrue());
      assertThat(mine.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(ignoresTerm.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(other.isAlive()).isTrue();

      RemoteReaper.Reaped again = RemoteReaper.reap(new ShShell(), a, Duration.ofSeconds(20));
      assertThat(again.leftovers()).isEmpty();
    } finally {
      mine.destroyForcibly();
      other.destroyForcibly();
      ignoresTerm.destroyForcibly();
    }
  }

  @Test
  void aHostileRunIdIsQuoted() {
    RemoteReaper.Reaped o =
        RemoteReaper.reap(
            new ShShell(), "x'; touch /tmp/pwned-by-reaper; '", Duration.ofSeconds(20));
    assertThat(o.error()).isNull();
    assertThat(new java.io.File("/tmp/pwned-by-reaper")).doesNotExist();
  }

  @Test
  void theScriptAndTheWordsSentWithItAreTheGoldenOnes() {
    GoldenText.assertMatches(
        RemoteReaper.script("20260102-030405-job-ab12"),
        getClass(),
        "golden/remote-reaper.expected.txt");
  }

  /**
   * With bash: a run id hostile to the shell is a value compared, never code (nothing runs, nothing
   * is stopped); an odd one that run ids may be (a leading dash, dots) arrives exactly: its process
   * is stopped, not one whose id only starts with it.
   */
  @Test
  void withBashAHostileRunIdRunsNothingAndAnOddOneArrivesExactly(@TempDir Path tmp)
      throws Exception {
    Path mark = tmp.resolve("pwned");
    String odd = "-n.-" + UUID.randomUUID().toString().replace("-", "");
    Process exact = startMarked(odd, "sleep", "60");
    Process longer = startMarked(odd + "x", "sleep", "60");
    Thread.sleep(200);
    try {
      ExecResult hostile = BashRun.run(RemoteReaper.script(BashRun.hostile(mark)), Map.of());
      assertThat(hostile.exitCode()).as(hostile.stderr()).isZero();
      assertThat(hostile.stdout()).isEmpty();
      assertThat(mark).doesNotExist();
      assertThat(exact.isAlive()).isTrue();

      ExecResult r = BashRun.run(RemoteReaper.script(odd), Map.of());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(r.stdout()).isEqualTo("leftover " + exact.pid() + " sleep 60 \n");
      assertThat(exact.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(longer.isAlive()).isTrue();
    } finally {
      exact.destroyForcibly();
      longer.destroyForcibly();
    }
  }

  /**
   * A process found as the run's, then gone before its command line was read (it was ending on its
   * own, as the job's processes do when clusterrun's sessions close): named "(exiting)", not with
   * an empty command, and the reaper still ends normally.
   */
  @Test
  void aProcessGoneBeforeItsCommandLineIsReadIsNamedExiting() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(5, TimeUnit.SECONDS)).isTrue();
    // The found process stands in for run_processes' answer: it ended before reap_run looked.
    String script =
        RemoteReaper.REAP.with(List.of())
            + "\nrun_processes() { printf ' %s:x\\n' "
            + gone.pid()
            + "; }\nreap_run x\n";
    ExecResult r = BashRun.sh(script);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("leftover " + gone.pid() + " (exiting)\n");
  }
}
