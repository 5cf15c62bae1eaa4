package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Line handling shared by the parsers. */
final class OutputText {
  private OutputText() {}

  /** Open MPI's {@code --tag-output} prefix, e.g. {@code [1,0]<stdout>:}. */
  private static final Pattern MPI_TAG = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:");

  /**
   * Splits output into trimmed lines, without {@code \r} and without Open MPI's output tags, so a
   * parser sees the same text whichever way mpirun was told to print.
   */
  static List<String> lines(String output) {
    List<String> out = new ArrayList<>();
    if (output == null) {
      return out;
    }
    for (String raw : output.split("\n", -1)) {
      String line = raw.replace("\r", "");
      line = MPI_TAG.matcher(line).replaceFirst("");
      out.add(line.strip());
    }
    return out;
  }

  /** Parses a number as C's printf writes it, including {@code nan} and {@code inf}. */
  static Double number(String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("nan") || t.equals("-nan") || t.equals("+nan")) {
      return Double.NaN;
    }
    if (t.equals("inf") || t.equals("+inf")) {
      return Double.POSITIVE_INFINITY;
    }
    if (t.equals("-inf")) {
      return Double.NEGATIVE_INFINITY;
    }
    try {
      return Double.valueOf(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A number pattern for regexes, also matching {@code nan}/{@code inf} as HPL prints them. */
  static final String NUM = "([-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|nan|inf))";

  static boolean isBlank(String output) {
    return output == null || output.isBlank();
  }
}
