package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.launch.run.RunEnd;
import org.junit.jupiter.api.Test;

class ExitCodeTest {
  /** As shells, timeout(1) and srun give them: 128 + the signal's number. */
  @Test
  void aSignalThatEndsClusterrunGives128PlusItsNumber() {
    assertThat(ExitCode.bySignal(1)).as("SIGHUP").isEqualTo(129);
    assertThat(ExitCode.bySignal(2)).as("SIGINT").isEqualTo(130);
    assertThat(ExitCode.bySignal(15)).as("SIGTERM").isEqualTo(143);
    assertThat(ExitCode.bySignal(9)).as("SIGKILL, as the shell sees it").isEqualTo(137);
    assertThatThrownBy(() -> ExitCode.bySignal(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theTableShowsTheSignalRowAs128PlusN() {
    assertThat(ExitCode.INTERRUPTED.label()).isEqualTo("128+N");
    assertThat(ExitCode.INTERRUPTED.code()).isEmpty();
    assertThat(ExitCode.table()).containsKey("128+N").doesNotContainKey("130");
    assertThat(ExitCode.table("plan")).containsKey("128+N");
    assertThatThrownBy(ExitCode.INTERRUPTED::value).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anInterruptedRunExitsWithItsSignalsCode() {
    assertThat(RunEnd.INTERRUPTED.exitCode(143)).isEqualTo(143);
    assertThat(RunEnd.FAILED.exitCode(7)).isEqualTo(7);
    assertThat(RunEnd.NODE_LOST.exitCode(143)).isEqualTo(5);
  }
}
