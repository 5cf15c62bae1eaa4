package dev.clusterrun.core.remote;

import java.util.List;

/**
 * The one quoting function: every word clusterrun sends to a shell (over SSH, in a launch agent, in
 * a generated script) goes through here. The result is a POSIX {@code sh} word list that yields
 * exactly the given words, whatever they contain.
 */
public final class ShellQuote {
  private ShellQuote() {}

  /** Quotes one word. Words made only of safe characters are left bare for readability. */
  public static String quote(String word) {
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

  /** Quotes each word and joins them with single spaces. */
  public static String join(List<String> argv) {
    StringBuilder b = new StringBuilder();
    for (String w : argv) {
      if (b.length() > 0) {
        b.append(' ');
        b.append(quote(w));
      } else {
        // A bare NAME=value in command position would be read as an assignment, not a command.
        b.append(w.indexOf('=') >= 0 ? forceQuote(w) : quote(w));
      }
    }
    return b.toString();
  }

  /** True when {@code word} needs no quotes in any POSIX shell context where a word is expected. */
  public static boolean isSafe(String word) {
    if (word.isEmpty()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-'
              || c == '.'
              || c == '/'
              || c == ':'
              || c == ','
              || c == '+'
              || c == '@'
              || c == '%'
              || c == '=';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
