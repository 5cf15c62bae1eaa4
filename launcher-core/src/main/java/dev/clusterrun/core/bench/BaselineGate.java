package dev.clusterrun.core.bench;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Fails a run whose headline fell by more than a given percentage below a baseline {@code
 * results.json}, and always fails a run that is not PASSED. A fall of exactly the limit passes.
 * Percentages are computed in decimal from the values as written, so 100 → 95 is exactly −5%.
 */
public final class BaselineGate {
  private final BigDecimal maxDropPercent;

  /**
   * @param maxDropPercent how far (in percent, ≥ 0) the headline may fall below the baseline
   */
  public BaselineGate(double maxDropPercent) {
    if (!(maxDropPercent >= 0) || Double.isInfinite(maxDropPercent)) {
      throw new IllegalArgumentException(
          "the allowed drop must be a percentage >= 0, not " + maxDropPercent);
    }
    this.maxDropPercent = BigDecimal.valueOf(maxDropPercent);
  }

  public GateResult check(BenchResult current, BenchResult baseline) {
    String who = current.preset();
    Double newValue = current.headline() == null ? null : current.headline().value();
    if (current.verdict() != Verdict.PASSED) {
      return notComparable(
          who + ": the run is " + current.verdict() + ": " + current.reason(), newValue);
    }
    if (!baseline.preset().equals(current.preset())) {
      return notComparable(
          who + ": the baseline is a " + baseline.preset() + " result, not " + current.preset(),
          newValue);
    }
    if (baseline.verdict() != Verdict.PASSED) {
      return notComparable(
          who
              + ": the baseline is "
              + baseline.verdict()
              + ", not a passing result to compare with",
          newValue);
    }
    Metric now = current.headline();
    Metric then = baseline.headline();
    if (now == null || then == null) {
      return new GateResult(
          false,
          who + ": " + (now == null ? "the run" : "the baseline") + " has no headline value",
          then == null ? null : then.value(),
          newValue,
          null);
    }
    if (!now.name().equals(then.name()) || !now.unit().equals(then.unit())) {
      return new GateResult(
          false,
          who
              + ": the baseline measures "
              + then.name()
              + " in "
              + then.unit()
              + ", this run "
              + now.name()
              + " in "
              + now.unit(),
          then.value(),
          now.value(),
          null);
    }
    if (!finite(now.value()) || !finite(then.value()) || then.value() <= 0) {
      return new GateResult(
          false,
          who
              + ": cannot compare "
              + Fmt.num(then.value())
              + " with "
              + Fmt.num(now.value())
              + " "
              + now.unit(),
          then.value(),
          now.value(),
          null);
    }
    BigDecimal old = BigDecimal.valueOf(then.value());
    BigDecimal neu = BigDecimal.valueOf(now.value());
    BigDecimal change =
        neu.subtract(old).divide(old, MathContext.DECIMAL64).multiply(BigDecimal.valueOf(100));
    boolean ok = change.compareTo(maxDropPercent.negate()) >= 0;
    String text =
        who
            + ": "
            + now.name()
            + " "
            + Fmt.num(then.value())
            + " -> "
            + Fmt.num(now.value())
            + " "
            + now.unit()
            + " ("
            + Fmt.percent(change)
            + ")"
            + (ok
                ? ", within the allowed drop of "
                    + maxDropPercent.stripTrailingZeros().toPlainString()
                    + "%"
                : ", fell by more than the allowed "
                    + maxDropPercent.stripTrailingZeros().toPlainString()
                    + "%");
    return new GateResult(ok, text, then.value(), now.value(), change.doubleValue());
  }

  private static boolean finite(double v) {
    return !Double.isNaN(v) && !Double.isInfinite(v);
  }

  /** A run the gate cannot compare with the baseline: it fails, saying why. */
  private static GateResult notComparable(String why, Double newValue) {
    return new GateResult(false, why, null, newValue, null);
  }
}
