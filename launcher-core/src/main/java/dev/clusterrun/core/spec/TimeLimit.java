package dev.clusterrun.core.spec;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wall-clock limit ({@code --time}, {@code CLUSTERRUN_TIME}, the job file's {@code time:}) in
 * srun's forms and clusterrun's: {@code MM}, {@code MM:SS}, {@code HH:MM:SS}, {@code D-HH}, {@code
 * D-HH:MM}, {@code D-HH:MM:SS} (srun's {@code --time}: a bare number is minutes), or a number with
 * a unit, {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}. {@code 0}, {@code UNLIMITED} and {@code
 * infinite} mean no limit, as in Slurm: {@link #parse} gives {@link Duration#ZERO}.
 */
public final class TimeLimit {
  private static final Pattern COLONS =
      Pattern.compile("([0-9]{1,9})(?::([0-9]{1,9}))?(?::([0-9]{1,9}))?");
  private static final Pattern DAYS =
      Pattern.compile("([0-9]{1,6})-([0-9]{1,9})(?::([0-9]{1,9}))?(?::([0-9]{1,9}))?");
  private static final Pattern UNIT = Pattern.compile("([0-9]{1,9})(s|m|h|d)");

  /** The longest limit taken: a year. */
  static final Duration MAX = Duration.ofDays(365);

  /** What every message about a bad value says is expected. */
  public static final String EXPECTED =
      "expected MM, MM:SS, HH:MM:SS, D-HH[:MM[:SS]] (srun's forms), a number with a unit (90s, 30m,"
          + " 2h, 1d), or 0/UNLIMITED for none";

  private TimeLimit() {}

  /**
   * The limit {@code text} says; {@link Duration#ZERO} for none.
   *
   * @throws IllegalArgumentException saying what is expected, for anything else
   */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.strip();
    if (t.equals("0") || t.equalsIgnoreCase("unlimited") || t.equalsIgnoreCase("infinite")) {
      return Duration.ZERO;
    }
    Duration d = null;
    Matcher m;
    if ((m = UNIT.matcher(t)).matches()) {
      long n = Long.parseLong(m.group(1));
      d =
          switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
    } else if ((m = DAYS.matcher(t)).matches()) {
      d =
          Duration.ofDays(Long.parseLong(m.group(1)))
              .plusHours(Long.parseLong(m.group(2)))
              .plusMinutes(group(m, 3))
              .plusSeconds(group(m, 4));
    } else if ((m = COLONS.matcher(t)).matches()) {
      if (m.group(3) != null) {
        d =
            Duration.ofHours(Long.parseLong(m.group(1)))
                .plusMinutes(group(m, 2))
                .plusSeconds(group(m, 3));
      } else {
        d = Duration.ofMinutes(Long.parseLong(m.group(1))).plusSeconds(group(m, 2));
      }
    }
    if (d == null) {
      throw new IllegalArgumentException(EXPECTED + ", found '" + text + "'");
    }
    if (d.compareTo(MAX) > 0) {
      throw new IllegalArgumentException("at most a year (365 days), found '" + text + "'");
    }
    return d;
  }

  private static long group(Matcher m, int g) {
    return m.group(g) == null ? 0 : Long.parseLong(m.group(g));
  }

  /** The limit as people read it: {@code 1h 30m}, {@code 10s}, {@code 2d 3h}. */
  public static String display(Duration d) {
    if (d.isZero()) {
      return "none";
    }
    StringBuilder b = new StringBuilder();
    long s = d.toSeconds();
    long[] parts = {s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < parts.length; i++) {
      if (parts[i] > 0) {
        b.append(b.length() == 0 ? "" : " ").append(parts[i]).append(units[i]);
      }
    }
    return b.toString();
  }
}
