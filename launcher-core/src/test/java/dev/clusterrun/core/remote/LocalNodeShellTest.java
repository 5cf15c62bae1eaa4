package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalNodeShellTest {
  final LocalNodeShell sh = new LocalNodeShell("head");

  @Test
  void runsShWithExitCodeAndBothStreams() {
    ExecResult r = sh.run("echo out; echo err >&2; exit 4", Duration.ofSeconds(10));
    assertThat(r.exitCode()).isEqualTo(4);
    assertThat(r.stdout()).isEqualTo("out\n");
    assertThat(r.stderr()).isEqualTo("err\n");
    assertThat(r.error()).isNull();
    assertThat(sh.node()).isEqualTo("head");
  }

  @Test
  void outputIsFullyDrainedBeforeTheResult() {
    ExecResult r =
        sh.run("head -c 5000000 /dev/zero | tr '\\0' x; echo end >&2", Duration.ofSeconds(30));
    assertThat(r.stdout()).hasSize(5_000_000);
    assertThat(r.stderr()).isEqualTo("end\n");
  }

  @Test
  void stdinIsClosed() {
    assertThat(sh.run("cat; echo done", Duration.ofSeconds(10)).stdout()).isEqualTo("done\n");
  }

  @Test
  void argvIsQuotedExactly() {
    List<String> argv = List.of("printf", "%s|", "a b", "$(id)", "'", "");
    assertThat(sh.exec(argv, Duration.ofSeconds(10)).stdout()).isEqualTo("a b|$(id)|'||");
  }

  @Test
  void timeoutKillsTheScriptAndItsChildren() {
    Timeouts.assertKilledAfter(sh, "head", "echo begun; sleep 30; echo never", 700, "begun\n");
  }
}
