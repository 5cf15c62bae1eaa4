package dev.clusterrun.core.launch.mpirun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head's start time remembered per container key, and the choice it makes for the next run: the
 * other nodes' containers are begun during the checks only when the head's took {@link
 * WarmStart#SLOW_START} or more.
 */
class StartTimesTest {
  @TempDir Path ws;

  @Test
  void aStartTimeIsRememberedPerKeyAndTheLastOneWins() {
    assertThat(StartTimes.remembered(ws, "0123456789abcdef")).isNull();
    StartTimes.remember(ws, "0123456789abcdef", 1.8);
    StartTimes.remember(ws, "fedcba9876543210", 0.25);
    StartTimes.remember(ws, "0123456789abcdef", 0.3);
    assertThat(StartTimes.remembered(ws, "0123456789abcdef")).isEqualTo(0.3);
    assertThat(StartTimes.remembered(ws, "fedcba9876543210")).isEqualTo(0.25);
  }

  @Test
  void linesThatAreNotClusterrunsAreNoMemoryAndTheFileStaysSmall() throws Exception {
    Files.createDirectories(ws.resolve(".clusterrun"));
    Files.writeString(
        ws.resolve(StartTimes.FILE), "junk\n0123456789abcdef x\nABC 1.0\n0123456789abcdef\n");
    assertThat(StartTimes.remembered(ws, "0123456789abcdef")).isNull();
    for (int i = 0; i < StartTimes.MAX + 10; i++) {
      StartTimes.remember(ws, String.format("%016x", i), i);
    }
    assertThat(Files.readAllLines(ws.resolve(StartTimes.FILE))).hasSize(StartTimes.MAX);
    assertThat(StartTimes.remembered(ws, String.format("%016x", 0))).isNull();
    assertThat(StartTimes.remembered(ws, String.format("%016x", StartTimes.MAX + 9)))
        .isEqualTo(StartTimes.MAX + 9.0);
  }

  @Test
  void theLastRunsStartTimeDecidesAtOnce() throws Exception {
    double slow = WarmStart.SLOW_START.toMillis() / 1000.0;
    // No held start is looked at when the last run's figure is known.
    assertThat(WarmStart.worthIt(slow, () -> null)).isTrue();
    assertThat(WarmStart.worthIt(slow + 1, () -> null)).isTrue();
    assertThat(WarmStart.worthIt(slow - 0.01, () -> null)).isFalse();
    // Without it, a job that went before the head's start said anything begins nothing.
    assertThat(WarmStart.worthIt(null, () -> null)).isFalse();
  }
}
