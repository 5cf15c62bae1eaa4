package dev.clusterrun.core.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Number and time formatting for the text renderers: locale-free, six significant digits. */
final class Fmt {
  private Fmt() {}

  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'").withZone(ZoneOffset.UTC);

  static String num(Double v) {
    if (v == null) {
      return "-";
    }
    if (v.isNaN() || v.isInfinite()) {
      return v.toString();
    }
    BigDecimal d = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }

  static String num(Number v) {
    if (v == null) {
      return "-";
    }
    if (v instanceof Double d) {
      return num(d);
    }
    return v.toString();
  }

  static String percent(BigDecimal change) {
    BigDecimal r = change.setScale(2, RoundingMode.HALF_EVEN);
    return (r.signum() > 0 ? "+" : "") + r.toPlainString() + "%";
  }

  static String minute(Instant t) {
    return t == null ? "-" : MINUTE.format(t);
  }

  /** {@code " Gflops"}, or nothing for no unit. */
  static String unitSuffix(String unit) {
    return unit == null || unit.isEmpty() ? "" : " " + unit;
  }

  static String or(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
