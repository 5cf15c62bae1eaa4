package dev.clusterrun.core;

import java.util.Locale;

/**
 * The words people read and write for clusterrun's enums: the constant's name in lower case, {@code
 * _} written {@code -} ({@code PER_NODE} is {@code per-node}).
 */
public final class EnumWords {
  private EnumWords() {}

  public static String word(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The constant whose word is {@code word}, or null. */
  public static <E extends Enum<E>> E byWord(E[] values, String word) {
    for (E e : values) {
      if (word(e).equals(word)) {
        return e;
      }
    }
    return null;
  }
}
