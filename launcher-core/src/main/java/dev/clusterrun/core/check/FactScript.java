package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ShellQuote;
import java.util.ArrayList;
import java.util.List;

/**
 * The one POSIX {@code sh} script that gathers a node's {@link Facts} in one round trip, run as the
 * job user in a non-interactive session (where mpirun later starts {@code orted}).
 *
 * <p>It prints {@code key=value} lines between {@code @clusterrun-facts-begin 1} and {@code
 * @clusterrun-facts-end}; values are escaped ({@code \} as {@code \\}, newline as {@code \n}) so no
 * value can forge a key. Every probe is guarded: one failing probe never fails the script. Paths
 * the write probes create are removed again. The script body is {@code facts.sh} beside this
 * class; {@link #render} prepends the parameters, quoted with {@link ShellQuote}.
 */
public final class FactScript {
  /** enroot's default system configuration directory. */
  public static final String DEFAULT_SYSCONF = "/etc/enroot";

  /** The first-lines header of clusterrun's hook, followed by its version number. */
  public static final String HOOK_VERSION_HEADER = "# clusterrun-launch-agent-hook version ";

  static final String BEGIN = "@clusterrun-facts-begin 1";
  static final String END = "@clusterrun-facts-end";

  private static final String BODY = Scripts.resource("facts.sh");

  private FactScript() {}

  /**
   * The script to give to {@link dev.clusterrun.core.remote.NodeShell#run}, with the enroot
   * versions read before ({@link EnrootVersions}): a node whose enroot executable is listed takes
   * its version from there instead of starting enroot.
   *
   * @param sysconfDir enroot's system configuration directory ({@code /etc/enroot} on nodes; a
   *     temporary directory in tests)
   * @param containerNames named containers whose presence under ENROOT_DATA_PATH to report
   * @param enrootKnown lines {@code PATH ID VERSION} ({@link EnrootVersions#table}), empty to learn
   *     them; null: {@code enroot version} on every node
   * @param hostMpi also the host's {@code mpirun --version}, which only {@code check --json} shows
   */
  public static String render(
      String sysconfDir, List<String> containerNames, String enrootKnown, boolean hostMpi) {
    List<String> set = new ArrayList<>();
    set.add("set");
    set.add("--");
    set.addAll(containerNames);
    return ShellQuote.join(set)
        + "\n"
        + "CR_SYSCONF="
        + ShellQuote.quote(sysconfDir)
        + "\n"
        + (enrootKnown == null
            ? "unset CR_ENROOT_KNOWN"
            : "CR_ENROOT_KNOWN=" + ShellQuote.quote(enrootKnown))
        + "\n"
        + (hostMpi ? "CR_HOST_MPI=1" : "unset CR_HOST_MPI")
        + "\n"
        + BODY;
  }
}
