package dev.clusterrun.core.remote;

import dev.clusterrun.core.Ascii;
import java.util.List;
import java.util.Set;

/**
 * The one quoting function: every word clusterrun sends to a shell (over SSH, in a launch agent, in
 * a generated script) goes through here. The result is a POSIX {@code sh} word list that yields
 * exactly the given words, whatever they contain.
 */
public final class ShellQuote {
  private ShellQuote() {}

  /**
   * Shell reserved words (POSIX and bash): bare in command position they would start a compound
   * command instead of naming a program.
   */
  private static final Set<String> RESERVED =
      Set.of(
          "if",
          "then",
          "else",
          "elif",
          "fi",
          "case",
          "esac",
          "for",
          "select",
          "while",
          "until",
          "do",
          "done",
          "in",
          "function",
          "time",
          "coproc",
          "{",
          "}",
          "!",
          "[[",
          "]]");

  /**
   * Quotes one word. Words made only of safe characters are left bare for readability.
   *
   * @throws IllegalArgumentException when the word contains a NUL character, which no shell word
   *     and no argv entry can carry
   */
  public static String quote(String word) {
    if (word.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a shell word cannot contain a NUL character");
    }
    if (word.isEmpty()) {
      return "''";
    }
    if (isSafe(word)) {
      return word;
    }
    return forceQuote(word);
  }

  private static String forceQuote(String word) {
    StringBuilder b = new StringBuilder(word.length() + 8).append('\'');
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c == '\'') {
        b.append("'\\''");
      } else {
        b.append(c);
      }
    }
    return b.append('\'').toString();
  }

  /**
   * Quotes each word and joins them with single spaces, so that {@code sh -c} runs {@code argv[0]}
   * as a command with exactly the other words as its arguments.
   */
  public static String join(List<String> argv) {
    StringBuilder b = new StringBuilder();
    for (String w : argv) {
      if (b.length() > 0) {
        b.append(' ');
        b.append(quote(w));
      } else {
        // A bare NAME=value in command position would be read as an assignment, not a command,
        // and a bare reserved word would start a compound command.
        String q = quote(w);
        b.append(q.equals(w) && (w.indexOf('=') >= 0 || RESERVED.contains(w)) ? forceQuote(w) : q);
      }
    }
    return b.toString();
  }

  /**
   * {@link #join}, on one line: a newline inside a word is written as {@code "$NEWLINE"} (outside
   * the word's single quotes), so that the line can be read with {@code read -r} and run with
   * {@code eval} by a shell in which the variable {@code newline} holds a newline.
   *
   * @param newline the name of that variable
   */
  public static String joinOnOneLine(List<String> argv, String newline) {
    if (!newline.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("not a shell variable name: " + newline);
    }
    return join(argv).replace("\n", "'\"$" + newline + "\"'");
  }

  /** True when {@code word} needs no quotes in any POSIX shell context where a word is expected. */
  public static boolean isSafe(String word) {
    if (word.isEmpty()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (!Ascii.letterDigitOr(word.charAt(i), "_-./:,+@%=")) {
        return false;
      }
    }
    return true;
  }
}
