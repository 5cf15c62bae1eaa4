package dev.clusterrun.core.launch.mpirun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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

  /** A held start that is up after {@code upAt} seconds, and has run {@code now}. */
  record Held(double upAt, double[] now) implements WarmStart.Start {
    @Override
    public boolean up() {
      return now[0] >= upAt;
    }

    @Override
    public double seconds() {
      now[0] += 0.1;
      return now[0];
    }

    @Override
    public boolean alive() {
      return upAt < 100;
    }
  }

  @Test
  void theLastRunsStartTimeDecidesAtOnceAndThisRunsIsMeasured() throws Exception {
    double slow = WarmStart.SLOW_START.toMillis() / 1000.0;
    int[] begun = {0};
    // Remembered slow: begun at once, and this start (up after 2 s) measured.
    Held h = new Held(2.0, new double[] {0});
    assertThat(WarmStart.watch(slow, false, h, () -> begun[0]++)).isBetween(2.0, 2.2);
    assertThat(begun[0]).isEqualTo(1);
    // Remembered quick: never begun, even though this one turns out slow.
    begun[0] = 0;
    Held h2 = new Held(2.0, new double[] {0});
    WarmStart.watch(slow - 0.01, false, h2, () -> begun[0]++);
    assertThat(begun[0]).isZero();
    // Nothing remembered: begun once this start has run SLOW_START without being up.
    Held h3 = new Held(2.0, new double[] {0});
    WarmStart.watch(null, false, h3, () -> begun[0]++);
    assertThat(begun[0]).isEqualTo(1);
    // Nothing remembered and a quick start: not begun.
    begun[0] = 0;
    Held h4 = new Held(0.3, new double[] {0});
    assertThat(WarmStart.watch(null, false, h4, () -> begun[0]++)).isLessThan(slow);
    assertThat(begun[0]).isZero();
    // A busy machine begins nothing.
    Held h5 = new Held(2.0, new double[] {0});
    WarmStart.watch(slow, true, h5, () -> begun[0]++);
    assertThat(begun[0]).isZero();
    // A start that ended before it was up: nothing measured.
    assertThat(WarmStart.watch(null, true, new Held(1000, new double[] {0}), () -> begun[0]++))
        .isNaN();
  }

  @Test
  void aBusyHeadHoldsBackOnlyNodesThatShareItsProcessors() {
    // The local test cluster: every node a namespace of one machine, one boot id.
    assertThat(EarlyStart.sharesProcessors("b1", List.of("b1", "b1"))).isTrue();
    // A cluster: every node its own kernel; a busy head says nothing about the others.
    assertThat(EarlyStart.sharesProcessors("b1", List.of("b2", "b3"))).isFalse();
    // One node on the head's machine is enough to hold back.
    assertThat(EarlyStart.sharesProcessors("b1", List.of("b2", "b1"))).isTrue();
    // Unknown (no answer, or no boot id): held back as before.
    assertThat(EarlyStart.sharesProcessors(null, List.of("b2"))).isTrue();
    assertThat(EarlyStart.sharesProcessors("b1", Arrays.asList("b2", null))).isTrue();
    assertThat(EarlyStart.sharesProcessors("b1", List.of())).isFalse();
  }
}
