package dev.clusterrun.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The words people read and write for clusterrun's enums: the constant's name in lower case, {@code
 * _} written {@code -} ({@code PER_NODE} is {@code per-node}).
 */
public final class EnumWords {
  private EnumWords() {}

  public static String word(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The constant whose word is {@code word}, if one is. */
  public static <E extends Enum<E>> Optional<E> byWord(E[] values, String word) {
    return Arrays.stream(values).filter(e -> word(e).equals(word)).findFirst();
  }
}
