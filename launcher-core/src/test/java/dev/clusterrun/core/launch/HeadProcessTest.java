package dev.clusterrun.core.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Real local processes: every command the head runs goes through here. */
class HeadProcessTest {
  @Test
  void aQuickCommandIsStartedAndItsOutputAndCodeComeBack() throws Exception {
    HeadCommands.Captured c =
        HeadCommands.LOCAL.capture(
            List.of("sh", "-c", "echo out; echo \"$X\" >&2; exit 3"), Map.of("X", "from env"));
    assertThat(c.exitCode()).isEqualTo(3);
    assertThat(c.stdout()).isEqualTo("out\n");
    assertThat(c.stderr()).isEqualTo("from env\n");
  }

  @Test
  void aMissingProgramIsAnIoException() {
    assertThatThrownBy(
            () -> HeadCommands.LOCAL.capture(List.of("/nonexistent/clusterrun-x"), Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot start /nonexistent/clusterrun-x");
  }
}
