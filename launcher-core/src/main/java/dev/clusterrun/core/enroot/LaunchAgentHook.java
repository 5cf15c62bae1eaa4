package dev.clusterrun.core.enroot;

import dev.clusterrun.core.Sha256;
import java.util.OptionalInt;

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

  private static final String CONTENT =
      """
      #!/bin/sh
      %1$s%2$d
      # Managed by `clusterrun setup`; do not edit (it is replaced on upgrade, a backup is kept).
      #
      # enroot pre-start hook. Hooks see the environment of `enroot start`, the container does not.
      # When %3$s is set there, pass that launch agent to Open MPI inside the
      # container through $ENROOT_ENVIRON (one KEY=VALUE per line, taken verbatim):
      #   %4$s  Open MPI 4 (ORTE)
      #   %5$s  Open MPI 5 (PRRTE)
      # Without the variable this hook does nothing: each job brings its own agent, so two users'
      # or two jobs' agents never meet.
      set -eu

      agent=${%3$s-}
      if [ -z "$agent" ]; then
          exit 0
      fi

      newline='
      '
      case $agent in
      *"$newline"*)
          echo "clusterrun: launch-agent hook: %3$s contains a newline; refusing to pass it to the container" >&2
          exit 1
          ;;
      esac

      if [ -z "${ENROOT_ENVIRON-}" ]; then
          echo "clusterrun: launch-agent hook: ENROOT_ENVIRON is not set; this hook must be run by enroot" >&2
          exit 1
      fi

      printf '%%s=%%s\\n' %4$s "$agent" %5$s "$agent" >> "$ENROOT_ENVIRON"
      """
          .formatted(HEADER_PREFIX, VERSION, ENV_VAR, OMPI4_VAR, OMPI5_VAR);

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
