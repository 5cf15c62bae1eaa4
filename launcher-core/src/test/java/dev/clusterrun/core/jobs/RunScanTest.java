package dev.clusterrun.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.remote.ExecResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan script with the real sh and /proc of this machine. */
class RunScanTest {
  static ExecResult sh(String script) throws IOException, InterruptedException {
    return dev.clusterrun.core.BashRun.sh(script);
  }

  @Test
  void findsTheProcessesOfRunsWithTheirHeadAndWhetherItsClusterrunLives() throws Exception {
    String tail = UUID.randomUUID().toString().substring(0, 8);
    String alive = "20261127-040000-a" + tail + "-0001";
    String gone = "20261127-040000-g" + tail + "-0002";
    long me = ProcessHandle.current().pid();
    String myStart =
        dev.clusterrun.core.launch.head.HeadMarkAccess.startTicks(
            java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat")));
    ProcessBuilder a = new ProcessBuilder("sleep", "60");
    a.environment().put("CLUSTERRUN_RUN_ID", alive);
    a.environment().put("CLUSTERRUN_HEAD", me + " " + myStart);
    ProcessBuilder g = new ProcessBuilder("sleep", "61");
    g.environment().put("CLUSTERRUN_RUN_ID", gone);
    g.environment().put("CLUSTERRUN_HEAD", me + " 1");
    Process pa = a.start();
    Process pg = g.start();
    try {
      Thread.sleep(200);
      RunScan.Node n = RunScan.parse("here", sh(RunScan.script(null)));
      assertThat(n.error()).isNull();
      assertThat(n.procs())
          .filteredOn(p -> p.pid() == pa.pid())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.runId()).isEqualTo(alive);
                assertThat(p.cmd()).isEqualTo("sleep 60");
                assertThat(p.ppid()).isEqualTo(me);
              });
      assertThat(n.heads()).anySatisfy(h -> assertThat(h.runId()).isEqualTo(alive));
      assertThat(n.heads())
          .filteredOn(h -> h.runId().equals(alive))
          .singleElement()
          .satisfies(h -> assertThat(h.alive()).isTrue());
      assertThat(n.heads())
          .filteredOn(h -> h.runId().equals(gone))
          .singleElement()
          .satisfies(h -> assertThat(h.alive()).isFalse());
      // One run only, when asked for it; the scan's own shell never counts.
      RunScan.Node one = RunScan.parse("here", sh(RunScan.script(gone)));
      assertThat(one.procs()).extracting(RunScan.Proc::pid).containsExactly(pg.pid());
    } finally {
      pa.destroyForcibly();
      pg.destroyForcibly();
    }
  }

  @Test
  void theScriptAndTheWordsSentWithItAreTheGoldenOnes() {
    GoldenText.assertMatches(RunScan.script(null), getClass(), "golden/run-scan-all.expected.txt");
    GoldenText.assertMatches(
        RunScan.script("20260102-030405-job-ab12"), getClass(), "golden/run-scan-one.expected.txt");
  }

  /**
   * With bash: a run id hostile to the shell is a value compared, never code; an odd one that run
   * ids may be (a leading dash, dots) arrives exactly: its process is found, not one whose id only
   * starts with it.
   */
  @Test
  void withBashAHostileRunIdRunsNothingAndAnOddOneArrivesExactly(@TempDir Path tmp)
      throws Exception {
    Path mark = tmp.resolve("pwned");
    RunScan.Node hostile =
        RunScan.parse("here", BashRun.run(RunScan.script(BashRun.hostile(mark)), Map.of()));
    assertThat(hostile.error()).isNull();
    assertThat(hostile.procs()).isEmpty();
    assertThat(mark).doesNotExist();

    String odd = "-n.-" + UUID.randomUUID().toString().replace("-", "");
    ProcessBuilder a = new ProcessBuilder("sleep", "60");
    a.environment().put("CLUSTERRUN_RUN_ID", odd);
    ProcessBuilder b = new ProcessBuilder("sleep", "61");
    b.environment().put("CLUSTERRUN_RUN_ID", odd + "x");
    Process pa = a.start();
    Process pb = b.start();
    try {
      Thread.sleep(200);
      RunScan.Node one = RunScan.parse("here", BashRun.run(RunScan.script(odd), Map.of()));
      assertThat(one.error()).isNull();
      assertThat(one.procs())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.pid()).isEqualTo(pa.pid());
                assertThat(p.runId()).isEqualTo(odd);
                assertThat(p.cmd()).isEqualTo("sleep 60");
              });
    } finally {
      pa.destroyForcibly();
      pb.destroyForcibly();
    }
  }
}
