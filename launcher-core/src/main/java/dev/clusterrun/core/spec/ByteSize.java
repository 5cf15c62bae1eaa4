package dev.clusterrun.core.spec;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A size in bytes as people write it: a whole number with a unit, {@code 500M}, {@code 50G}, {@code
 * 1T}. Units are powers of 1024 ({@code K}, {@code M}, {@code G}, {@code T}, {@code P}, in any
 * case, optionally followed by {@code B} or {@code iB}: {@code 50G}, {@code 50GB} and {@code 50GiB}
 * are the same size, as {@code du -h} and {@code df -h} count); digits alone are bytes.
 */
public record ByteSize(long bytes) {
  private static final Pattern SIZE =
      Pattern.compile("([0-9]{1,19})\\s*(?:([KMGTP])(?:I?B)?|B)?", Pattern.CASE_INSENSITIVE);
  private static final String UNITS = "KMGTP";

  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size cannot be negative: " + bytes);
    }
  }

  /**
   * Parses {@code 500M}, {@code 50G}, {@code 1T}, {@code 100GiB}, {@code 1048576}.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static ByteSize parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = SIZE.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "expected a size such as 500M, 50G or 1T (powers of 1024), found '" + text + "'");
    }
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the size '" + text + "' is too large", e);
    }
    int power = m.group(2) == null ? 0 : UNITS.indexOf(m.group(2).toUpperCase(Locale.ROOT)) + 1;
    long bytes = n;
    for (int i = 0; i < power; i++) {
      try {
        bytes = Math.multiplyExact(bytes, 1024L);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("the size '" + text + "' is too large", e);
      }
    }
    return new ByteSize(bytes);
  }

  /** The size in the largest unit that holds it whole: {@code 100G}, {@code 1536M}, {@code 17}. */
  @Override
  public String toString() {
    long v = bytes;
    int power = 0;
    while (v != 0 && v % 1024 == 0 && power < UNITS.length()) {
      v /= 1024;
      power++;
    }
    return power == 0 ? Long.toString(v) : v + UNITS.substring(power - 1, power);
  }

  /**
   * A size for a table, in the largest fitting unit, with one decimal below 100: {@code 12.3G},
   * {@code 512M}, {@code 900} (bytes).
   */
  public static String human(long bytes) {
    if (bytes < 1024) {
      return Long.toString(bytes);
    }
    double v = bytes;
    int power = 0;
    while (v >= 1024 && power < UNITS.length()) {
      v /= 1024;
      power++;
    }
    String unit = UNITS.substring(power - 1, power);
    return (v < 100 ? String.format(Locale.ROOT, "%.1f", v) : Long.toString(Math.round(v))) + unit;
  }
}
