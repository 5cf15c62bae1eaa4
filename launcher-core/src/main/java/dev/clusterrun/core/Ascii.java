package dev.clusterrun.core;

/**
 * The characters clusterrun lets through as they are where it names, quotes or encodes: ASCII
 * letters and digits, and the few others each place allows.
 */
public final class Ascii {
  private Ascii() {}

  /** Whether {@code c} is an ASCII letter or digit, or one of the characters of {@code others}. */
  public static boolean letterDigitOr(int c, String others) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || others.indexOf(c) >= 0;
  }
}
