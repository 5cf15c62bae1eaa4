package dev.clusterrun.core.spec;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * What the programs further along can carry, and nothing more: clusterrun quotes every word it
 * sends to a shell with {@code ShellQuote}, which is enough for one shell; these rules are about
 * what Open MPI, enroot and Linux do with a word after that (see the table in {@code
 * docs/reliability.md}). Each rule returns the value it accepts or throws {@link
 * IllegalArgumentException} with a message fit to follow the layer's own subject.
 */
public final class Carry {
  /** Linux's {@code PATH_MAX} less the terminating NUL. */
  public static final int PATH_MAX = 4095;

  /** Linux's limit for one argument or variable ({@code MAX_ARG_STRLEN}) less its NUL. */
  public static final int MAX_ARG_STRLEN = 128 * 1024 - 1;

  /** The launch agent as a whole: Open MPI hands it to every node twice within one argument. */
  public static final int MAX_AGENT = 40 * 1024;

  /** Variables clusterrun sets in the container itself; a job may not set them. */
  public static final Set<String> RESERVED =
      Set.of(
          "CLUSTERRUN_RUN_ID",
          "CLUSTERRUN_LAUNCH_AGENT",
          "OMPI_MCA_orte_launch_agent",
          "PRTE_MCA_prte_launch_agent");

  /** Where to put a value the launch agent cannot carry. */
  public static final String USE_ENV_FROM_HOST =
      "; a value that needs it goes through env-from-host instead (set it on the host, name it"
          + " in --container-env)";

  private Carry() {}

  /**
   * A word of the launch agent (a mount's paths, the workspace path and mount, a {@code
   * container.env} value). Open MPI splits the agent on spaces, has each node's shell run it, and
   * passes it to every daemon it starts on the same shell line a second time, as {@code -mca
   * orte_launch_agent "AGENT"}: inside those double quotes {@code $}, {@code `}, {@code "} and
   * {@code \} keep their meaning, so no quoting survives both readings.
   *
   * @param instead what to do instead, appended to the message (may be empty)
   */
  public static String agentWord(String value, String instead) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "'"
                + clip(value)
                + "' contains "
                + (Character.isISOControl(c) && !Character.isWhitespace(c)
                    ? "a control character"
                    : "white space")
                + ", which Open MPI's launch agent cannot carry (it splits the agent on spaces"
                + " and runs it in each node's shell)"
                + instead);
      }
      if (keepsMeaningInDoubleQuotes(c)) {
        throw new IllegalArgumentException(
            contains(
                    value,
                    c,
                    ", which Open MPI's launch agent cannot carry: Open MPI hands the agent to"
                        + " every other node's shell a second time")
                + instead);
      }
    }
    return value;
  }

  /**
   * An MCA value ({@code mpi.mca}, or the host's value of {@code OMPI_MCA_*}, {@code PRTE_MCA_*},
   * {@code PMIX_MCA_*}, {@code OPAL_PREFIX}): Open MPI passes its MCA settings to the daemons on
   * other nodes through their shell, each value in double quotes.
   */
  public static String mcaValue(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (keepsMeaningInDoubleQuotes(c)) {
        throw new IllegalArgumentException(
            contains(
                value,
                c,
                ": Open MPI passes MCA values to the daemons on other nodes through their shell,"));
      }
    }
    return value;
  }

  /** {@code $}, {@code `}, {@code "} and {@code \\}: what a shell still reads in double quotes. */
  private static boolean keepsMeaningInDoubleQuotes(char c) {
    return c == '$' || c == '`' || c == '"' || c == '\\';
  }

  /** {@code 'VALUE' contains 'C'WHY in double quotes, where 'C' keeps its meaning}. */
  private static String contains(String value, char c, String why) {
    return "'"
        + clip(value)
        + "' contains '"
        + c
        + "'"
        + why
        + " in double quotes, where '"
        + c
        + "' keeps its meaning";
  }

  /** Whether Open MPI passes a variable of this name to other nodes' shells (its MCA settings). */
  public static boolean mpiVariable(String name) {
    return name.startsWith("OMPI_MCA_")
        || name.startsWith("PRTE_MCA_")
        || name.startsWith("PMIX_MCA_")
        || name.equals("OPAL_PREFIX");
  }

  /**
   * A value for the container's environment: enroot writes it one {@code NAME=VALUE} a line and
   * strips quotes around a value, so a value wrapped in quotes as a whole would lose them.
   */
  public static String envValue(String value) {
    String t = value.stripTrailing();
    if (t.length() >= 2 && isQuote(t.charAt(0)) && isQuote(t.charAt(t.length() - 1))) {
      throw new IllegalArgumentException(
          "'"
              + clip(value)
              + "' is wrapped in quotes, which enroot strips from the container's environment;"
              + " give the value without them");
    }
    return value;
  }

  /**
   * The host's value of a variable named in {@code env-from-host}: it reaches the container through
   * enroot's environment file, one {@code NAME=VALUE} a line.
   */
  public static String hostValue(String name, String value) {
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new IllegalArgumentException(
          "the host's value of "
              + name
              + " holds a newline: enroot writes the container's environment one NAME=VALUE a"
              + " line, and the rest would become a variable of its own");
    }
    try {
      envValue(value);
      if (mpiVariable(name)) {
        mcaValue(value);
      }
      word(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the host's value of " + name + ": " + e.getMessage());
    }
    return value;
  }

  /** A name for the container's environment: not enroot's own, not one clusterrun sets. */
  public static String envName(String name) {
    if (name.startsWith("ENROOT_")) {
      throw new IllegalArgumentException(
          name
              + ": enroot keeps ENROOT_* variables out of the container's environment; they"
              + " configure enroot itself");
    }
    if (RESERVED.contains(name)) {
      throw new IllegalArgumentException(name + " is set by clusterrun itself");
    }
    return name;
  }

  /** A path: no {@code ..} part (where clusterrun writes below it), at most PATH_MAX bytes. */
  public static String path(String path, boolean noDotDot) {
    int n = bytes(path);
    if (n > PATH_MAX) {
      throw new IllegalArgumentException(
          "the path is " + n + " bytes long; Linux takes at most " + PATH_MAX + " (PATH_MAX)");
    }
    if (noDotDot) {
      for (String part : path.split("/", -1)) {
        if (part.equals("..")) {
          throw new IllegalArgumentException(
              "'"
                  + clip(path)
                  + "' contains a '..' part; clusterrun writes below this path, which must not"
                  + " lead out of it");
        }
      }
    }
    return path;
  }

  /** Any word of a command line: at most {@link #MAX_ARG_STRLEN} bytes. */
  public static String word(String word) {
    int n = bytes(word);
    if (n > MAX_ARG_STRLEN) {
      throw new IllegalArgumentException(
          "the value is "
              + n
              + " bytes long; Linux passes at most "
              + MAX_ARG_STRLEN
              + " bytes in one argument (MAX_ARG_STRLEN)");
    }
    return word;
  }

  /**
   * Text no argument, variable or file name can hold: a NUL, or an unpaired surrogate (which UTF-8
   * cannot encode). Only a job file can spell them, as escapes.
   */
  public static String encodable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\0') {
        throw new IllegalArgumentException(
            "contains a NUL character ('\\0'), which no argument, variable or file name can hold");
      }
      boolean lone =
          Character.isHighSurrogate(c)
                  && (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1)))
              || Character.isLowSurrogate(c)
                  && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
      if (lone) {
        throw new IllegalArgumentException(
            "contains an unpaired surrogate ("
                + String.format("\\u%04X", (int) c)
                + "), which UTF-8 cannot encode");
      }
    }
    return text;
  }

  static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }

  /** Long text as shown in a message: its start and its length. */
  static String clip(String text) {
    return YamlWords.clip(text);
  }
}
