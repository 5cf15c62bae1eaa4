package dev.clusterrun.core.spec;

import com.fasterxml.jackson.core.JsonToken;
import dev.clusterrun.core.spec.YamlTree.MapNode;
import dev.clusterrun.core.spec.YamlTree.Node;
import dev.clusterrun.core.spec.YamlTree.Scalar;
import dev.clusterrun.core.spec.YamlTree.Seq;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How {@link YamlReader}'s messages show what a person wrote: {@code found 'text'}, {@code found
 * 16}, {@code found a list}, long text clipped, a list as YAML would write it.
 */
public final class YamlWords {
  static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern PLAIN_WORD =
      Pattern.compile("[A-Za-z0-9._/+^=-][A-Za-z0-9._/+^=~-]*");
  private static final List<String> YAML11_BOOLEANS = List.of("y", "n", "yes", "no", "on", "off");

  private YamlWords() {}

  /** Whether a node is no value: {@code key:} or {@code ~}. */
  public static boolean isNull(Node n) {
    return n instanceof Scalar s && s.isNull();
  }

  /** What a person wrote, for "expected X, found Y": text quoted, numbers as they are. */
  public static String describe(Node n) {
    if (n instanceof MapNode) {
      return "a map";
    }
    if (n instanceof Seq) {
      return "a list";
    }
    Scalar s = (Scalar) n;
    return switch (s.token()) {
      case VALUE_NULL -> "nothing";
      case VALUE_STRING -> "'" + clip(s.text()) + "'";
      default -> clip(s.text());
    };
  }

  /** Text as shown in a message: whole up to 80 characters, else its start and its length. */
  public static String clip(String text) {
    if (text.length() <= 80) {
      return text;
    }
    return text.substring(0, 40) + "… (" + text.length() + " characters)";
  }

  /** Like {@link #describe}, but says so when a number was put in quotes. */
  static String describeNumeric(Node n) {
    if (n instanceof Scalar s
        && s.token() == JsonToken.VALUE_STRING
        && WHOLE.matcher(s.text()).matches()) {
      return "the quoted string '" + s.text() + "'; remove the quotes";
    }
    return describe(n);
  }

  /** A YAML flow list of words, quoting the words that need it. */
  static String flowList(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      out.add(flowWord(w));
    }
    return "[" + String.join(", ", out) + "]";
  }

  static String flowWord(String w) {
    if (PLAIN_WORD.matcher(w).matches() && !w.equals("-")) {
      return w;
    }
    return "\"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * What a scalar that is not a YAML 1.2 boolean is, for "expected true or false, found ...", with
   * a hint; null when there is nothing more to say than what it is.
   */
  static String notBoolean(Scalar s, boolean yaml12) {
    String lower = s.text().toLowerCase(Locale.ROOT);
    if (YAML11_BOOLEANS.contains(lower)) {
      String meant =
          lower.equals("y") || lower.equals("yes") || lower.equals("on") ? "true" : "false";
      return "'"
          + s.text()
          + "'; write "
          + meant
          + " (the job file follows YAML 1.2, where yes/no/on/off are text, not booleans;"
          + " YAML readers disagree on them)";
    }
    if (yaml12) {
      // A plain true/True/TRUE is read as a boolean, so this one was written in quotes.
      return "the quoted string '" + s.text() + "'; remove the quotes";
    }
    if (lower.equals("true") || lower.equals("false")) {
      return "'"
          + s.text()
          + "', which is not a boolean: write "
          + lower
          + " (YAML booleans are true and false, also True, TRUE, False and FALSE)";
    }
    return null;
  }
}
