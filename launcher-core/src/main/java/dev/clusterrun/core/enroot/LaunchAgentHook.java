package dev.clusterrun.core.enroot;

import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.remote.ShellScript;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The generic enroot pre-start hook that {@code clusterrun setup} installs as {@code
 * <sysconf>/hooks.d/50-clusterrun-launch-agent.sh} (root-owned, mode 0755).
 *
 * <p>Hooks see the environment of {@code enroot start}; the container does not (enroot clears it).
 * When that environment has {@value #ENV_VAR}, the hook appends to {@code $ENROOT_ENVIRON} (one
 * {@code KEY=VALUE} per line, read verbatim by enroot) the launch agent for Open MPI 4 ({@code
 * OMPI_MCA_orte_launch_agent}) and Open MPI 5 / PRRTE ({@code PRTE_MCA_prte_launch_agent}). Without
 * the variable it does nothing: the agent comes with each job, so two users' or two jobs' agents
 * never meet. An agent containing a newline is refused, since it would end the line early and
 * inject a variable of its own.
 */
public final class LaunchAgentHook {
  private LaunchAgentHook() {}

  /** Bumped whenever {@link #content()} changes; setup upgrades older versions in place. */
  public static final int VERSION = 1;

  /** The file name under {@code hooks.d}. */
  public static final String FILE_NAME = "50-clusterrun-launch-agent.sh";

  /** Path of the hook relative to enroot's sysconf dir. */
  public static final String RELATIVE_PATH = "hooks.d/" + FILE_NAME;

  /** The second line of the hook starts with this, followed by the version number. */
  public static final String HEADER_PREFIX = "# clusterrun-launch-agent-hook version ";

  /** The variable clusterrun sets in the environment of {@code enroot start}. */
  public static final String ENV_VAR = "CLUSTERRUN_LAUNCH_AGENT";

  /** The Open MPI 4 (ORTE) launch-agent MCA variable. */
  public static final String OMPI4_VAR = "OMPI_MCA_orte_launch_agent";

  /** The Open MPI 5 (PRRTE) launch-agent MCA variable. */
  public static final String OMPI5_VAR = "PRTE_MCA_prte_launch_agent";

  private static final Pattern PLACEHOLDER = Pattern.compile("__([A-Z0-9_]+?)__");

  private static final Pattern NAME_OR_NUMBER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[0-9]+");

  /**
   * The hook's text: {@code launch-agent-hook.sh} beside this class, a template whose placeholders
   * {@code __NAME__} are put in by {@link #fill}.
   */
  private static final String CONTENT =
      fill(
          ShellScript.text(LaunchAgentHook.class, "launch-agent-hook.sh"),
          Map.of(
              "VERSION",
              Integer.toString(VERSION),
              "ENV_VAR",
              ENV_VAR,
              "OMPI4_VAR",
              OMPI4_VAR,
              "OMPI5_VAR",
              OMPI5_VAR));

  /**
   * {@code template} with each placeholder {@code __NAME__} replaced by {@code values.get(NAME)}.
   * Only a variable name or a number is put in, so no value can change what the shell reads.
   *
   * @throws IllegalStateException for a placeholder without a value, a value never used, or a value
   *     that is neither a name nor a number (a broken build)
   */
  static String fill(String template, Map<String, String> values) {
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!NAME_OR_NUMBER.matcher(e.getValue()).matches()) {
        throw new IllegalStateException(
            e.getKey() + " is neither a name nor a number: " + e.getValue());
      }
    }
    Set<String> used = new HashSet<>();
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder(template.length());
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalStateException("no value for the placeholder " + m.group());
      }
      used.add(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    if (!used.equals(values.keySet())) {
      throw new IllegalStateException("placeholders never used: " + values.keySet());
    }
    return out.toString();
  }

  private static final String SHA256 = Sha256.hex(CONTENT);

  /** The full text of the hook file, ending with a newline. */
  public static String content() {
    return CONTENT;
  }

  /** Lower-case hex SHA-256 of {@link #content()} in UTF-8, as {@code sha256sum} prints it. */
  public static String sha256() {
    return SHA256;
  }

  /**
   * The version in a hook file's header, or empty when the text is not a clusterrun launch-agent
   * hook (its second line does not carry {@link #HEADER_PREFIX}).
   */
  public static OptionalInt versionOf(String text) {
    String[] lines = text.split("\n", 3);
    if (lines.length < 2 || !lines[0].startsWith("#!") || !lines[1].startsWith(HEADER_PREFIX)) {
      return OptionalInt.empty();
    }
    String rest = lines[1].substring(HEADER_PREFIX.length()).trim();
    if (rest.isEmpty() || rest.length() > 9 || !rest.chars().allMatch(Character::isDigit)) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(rest));
  }
}
