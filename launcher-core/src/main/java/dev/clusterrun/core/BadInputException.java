package dev.clusterrun.core;

import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bad input from a person: a file, a flag or an environment variable. The CLI prints it as {@code
 * clusterrun: <subject>: <problem>} and exits 2, never with a stack trace.
 *
 * <p>{@code subject} names where the problem is, as precisely as known: {@code hosts.txt:3}, {@code
 * job.yaml:4:7: container.mounts[1]}, {@code --container-name}.
 */
public final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String subject;
  private final String problem;

  public BadInputException(String subject, String problem) {
    super(visible(subject) + ": " + visible(shorten(problem)));
    this.subject = visible(subject);
    this.problem = visible(shorten(problem));
  }

  public BadInputException(String subject, String problem, Throwable cause) {
    super(visible(subject) + ": " + visible(shorten(problem)), cause);
    this.subject = visible(subject);
    this.problem = visible(shorten(problem));
  }

  private static final Pattern LONG_QUOTE = Pattern.compile("'([^']{" + 200 + ",})'");

  /** A message with every quoted value of 200 characters or more cut to its start and length. */
  static String shorten(String problem) {
    if (problem == null || problem.length() < 200) {
      return problem;
    }
    return LONG_QUOTE
        .matcher(problem)
        .replaceAll(
            m ->
                Matcher.quoteReplacement(
                    "'"
                        + m.group(1).substring(0, 60)
                        + "…' ("
                        + m.group(1).length()
                        + " characters)"));
  }

  /**
   * Text fit for one line of a terminal: control characters, line separators, invisible and
   * bidirectional format characters and unpaired surrogates spelled out ({@code \n}, {@code \t},
   * {@code \u001B}, {@code \u202E}), so that a value echoed in a message can neither break the
   * line, nor move the terminal, nor reorder what people read. Letters of every script, combining
   * marks and emoji are kept.
   */
  public static String visible(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String spelled = spell(text, i, c);
      if (spelled != null && b == null) {
        b = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (b != null) {
        if (spelled != null) {
          b.append(spelled);
        } else {
          b.append(c);
        }
      }
    }
    return b == null ? text : b.toString();
  }

  private static String spell(String text, int i, char c) {
    switch (c) {
      case '\n':
        return "\\n";
      case '\r':
        return "\\r";
      case '\t':
        return "\\t";
      default:
        break;
    }
    boolean hidden;
    if (Character.isHighSurrogate(c)) {
      hidden = i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
    } else if (Character.isLowSurrogate(c)) {
      hidden = i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
    } else {
      int type = Character.getType(c);
      hidden =
          Character.isISOControl(c)
              || type == Character.FORMAT
              || type == Character.LINE_SEPARATOR
              || type == Character.PARAGRAPH_SEPARATOR
              || type == Character.UNASSIGNED
              || type == Character.PRIVATE_USE;
    }
    return hidden ? String.format("\\u%04X", (int) c) : null;
  }

  /**
   * Runs a value check that reports by {@link IllegalArgumentException} (such as {@code
   * Mount.parse}) and names {@code subject} (a flag, a variable) when it fails.
   */
  public static <T> T about(String subject, Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(subject, e.getMessage(), e);
    }
  }

  /** Its row of the exit-code table: bad input, 2. */
  public ExitCode code() {
    return ExitCode.BAD_INPUT;
  }

  public String subject() {
    return subject;
  }

  public String problem() {
    return problem;
  }
}
