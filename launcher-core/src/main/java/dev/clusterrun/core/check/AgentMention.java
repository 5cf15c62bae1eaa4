package dev.clusterrun.core.check;

/**
 * One line (or variable) that names an agent variable of Open MPI, e.g. {@code
 * OMPI_MCA_orte_launch_agent}, {@code PRTE_MCA_prte_launch_agent} or {@code
 * OMPI_MCA_plm_rsh_agent}.
 *
 * @param kind where it was found
 * @param scope {@code system} (enroot's sysconf directory) or {@code user} (ENROOT_CONFIG_PATH);
 *     {@code null} for the environment
 * @param path the file, or {@code null} for the environment
 * @param line the line in the file, or {@code null}
 * @param comment whether the line is a comment ({@code #})
 * @param variable the variable named
 * @param active whether enroot uses the file: an executable {@code *.sh} hook, an {@code *.env}
 *     file; always true for configuration lines and the environment
 */
public record AgentMention(
    Kind kind,
    String scope,
    String path,
    Integer line,
    boolean comment,
    String variable,
    boolean active) {
  public enum Kind {
    HOOK,
    ENVIRON,
    CONFIG,
    ENVIRONMENT
  }

  /** {@code path:line}, or {@code the environment}. */
  public String place() {
    if (path == null) {
      return "the environment";
    }
    return line == null ? path : path + ":" + line;
  }
}
