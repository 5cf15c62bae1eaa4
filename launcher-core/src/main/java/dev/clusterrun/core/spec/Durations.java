package dev.clusterrun.core.spec;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The durations people write, in the job file and on the command line: 500ms, 10s, 2m, 1h. */
public final class Durations {
  private static final Pattern WITH_UNIT = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");
  private static final Pattern SECONDS = Pattern.compile("[0-9]{1,9}");

  private Durations() {}

  /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; null when the text is not one. */
  public static Duration withUnit(String text) {
    return parse(WITH_UNIT, text);
  }

  private static final Pattern AGE = Pattern.compile("([0-9]{1,9})(s|m|h|d|w)");

  /**
   * An age as people write it on the command line ({@code 30m}, {@code 12h}, {@code 7d}, {@code
   * 2w}); null when the text is not one.
   */
  public static Duration age(String text) {
    return parse(AGE, text);
  }

  /** Digits and a unit as {@code units} allows them; null when the text is not that. */
  private static Duration parse(Pattern units, String text) {
    Matcher m = units.matcher(text);
    if (!m.matches()) {
      return null;
    }
    long v = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(v);
      case "s" -> Duration.ofSeconds(v);
      case "m" -> Duration.ofMinutes(v);
      case "h" -> Duration.ofHours(v);
      case "d" -> Duration.ofDays(v);
      default -> Duration.ofDays(7 * v);
    };
  }

  /** Whole seconds written as digits alone; null when the text is not that. */
  public static Duration seconds(String text) {
    return SECONDS.matcher(text).matches() ? Duration.ofSeconds(Long.parseLong(text)) : null;
  }
}
