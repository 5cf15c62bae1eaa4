package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BaselineGateTest {
  static BenchResult hpl(double gflops) {
    return BenchResult.builder("hpl")
        .verdict(Verdict.PASSED)
        .headline(new Metric("HPL", gflops, "Gflops"))
        .build();
  }

  @ParameterizedTest(name = "{0} -> {1} with {2}% allowed: passes={3}")
  @CsvSource({
    "100,    95,     5,   true", // exactly at the limit
    "100,    94.99,  5,   false", // just above the limit
    "100,    95.01,  5,   true", // just below the limit
    "100,    120,    5,   true", // faster
    "574900, 546155, 5,   true", // exactly -5% on real-sized numbers
    "574900, 546154, 5,   false",
    "9.78027, 9.78027, 0, true", // no drop allowed, same value
    "9.78027, 9.78026, 0, false",
    "0.3,    0.285,  5,   true", // 0.3 -> 0.285 is exactly -5% in decimal
  })
  void thresholds(double old, double now, double pct, boolean passes) {
    GateResult g = new BaselineGate(pct).check(hpl(now), hpl(old));
    assertThat(g.passed()).as(g.message()).isEqualTo(passes);
    assertThat(g.oldValue()).isEqualTo(old);
    assertThat(g.newValue()).isEqualTo(now);
  }

  @Test
  void messageSaysOldNewAndChange() {
    GateResult g = new BaselineGate(5).check(hpl(90), hpl(100));
    assertThat(g.message())
        .isEqualTo("hpl: HPL 100 -> 90 Gflops (-10.00%), fell by more than the allowed 5%");
    assertThat(g.changePercent()).isEqualTo(-10.0);
    GateResult ok = new BaselineGate(5).check(hpl(101), hpl(100));
    assertThat(ok.message()).contains("100 -> 101").contains("(+1.00%)").contains("within");
  }

  @Test
  void failedOrUnreadableRunsAlwaysFailWhateverTheNumbers() {
    BenchResult failed =
        hpl(1e9).toBuilder().verdict(Verdict.FAILED).reason("residual check FAILED").build();
    GateResult g = new BaselineGate(100).check(failed, hpl(1));
    assertThat(g.passed()).isFalse();
    assertThat(g.message()).contains("FAILED").contains("residual check FAILED");
    BenchResult unreadable = BenchResult.parseError("hpl", "output cut short");
    assertThat(new BaselineGate(100).check(unreadable, hpl(1)).passed()).isFalse();
  }

  @Test
  void mismatchedBaselinesFail() {
    BenchResult stream =
        BenchResult.builder("stream")
            .verdict(Verdict.PASSED)
            .headline(new Metric("Triad", 1, "MB/s"))
            .build();
    assertThat(new BaselineGate(5).check(hpl(10), stream).message()).contains("stream result");
    BenchResult badBase = BenchResult.parseError("hpl", "x");
    assertThat(new BaselineGate(5).check(hpl(10), badBase).passed()).isFalse();
  }

  @Test
  void negativePercentIsRefused() {
    assertThatThrownBy(() -> new BaselineGate(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
