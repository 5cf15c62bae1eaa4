package dev.clusterrun.core.enroot;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.EnumWords;
import dev.clusterrun.core.remote.ShellQuote;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-job launch agent: how mpirun (inside the head container) starts its daemon on every other
 * node. It is {@code enroot start} with the head's own container flags and {@code orted} (Open MPI
 * 4) or {@code prted} (Open MPI 5) as the command, so the remote daemons, and the ranks they fork,
 * see the same container as the head.
 *
 * <p>Open MPI splits the agent on spaces and hands it to the remote user's shell through SSH, so
 * the agent is one shell string built with {@link ShellQuote}, and words must not hold white space
 * or newlines.
 */
public final class LaunchAgent {
  /** Set in the environment of the head's {@code enroot start}; the hook copies it. */
  public static final String ENV_VAR = "CLUSTERRUN_LAUNCH_AGENT";

  /**
   * Marks every remote daemon of a run (and the ranks it forks, which inherit it): clusterrun finds
   * leftovers of an interrupted run on a node by this variable in their environment.
   */
  public static final String RUN_ID_VAR = "CLUSTERRUN_RUN_ID";

  /** What the hook writes into {@code $ENROOT_ENVIRON}, for Open MPI 4 and for Open MPI 5. */
  public static final List<String> MPI_VARIABLES =
      List.of("OMPI_MCA_orte_launch_agent", "PRTE_MCA_prte_launch_agent");

  public enum Daemon {
    ORTED,
    PRTED;

    /** {@code orted}, {@code prted}. */
    public String command() {
      return EnumWords.word(this);
    }
  }

  private LaunchAgent() {}

  /**
   * The enroot settings every container of a job gets in the environment of its {@code enroot
   * start} (the head's and, through the agent, every other node's), as Pyxis sets them: the
   * environment overrides enroot's configuration, so a site's {@code ENROOT_ROOTFS_WRITABLE yes}
   * cannot make a read-only job writable. {@code ENROOT_ROOTFS_WRITABLE} and {@code
   * ENROOT_REMAP_ROOT} are always given, both ways ({@code y}/{@code n}); {@code ENROOT_MOUNT_HOME}
   * only when the user or the job says so ({@code mountHome} not null), else each node's enroot
   * configuration decides, as with Pyxis.
   */
  public static Map<String, String> enrootEnvironment(
      EnrootArgs.ContainerFlags flags, Boolean mountHome) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("ENROOT_ROOTFS_WRITABLE", flags.writable() ? "y" : "n");
    env.put("ENROOT_REMAP_ROOT", flags.remapRoot() ? "y" : "n");
    if (mountHome != null) {
      env.put("ENROOT_MOUNT_HOME", mountHome ? "y" : "n");
    }
    return env;
  }

  /**
   * The agent's words: {@code env ENROOT_ROOTFS_WRITABLE=y|n ENROOT_REMAP_ROOT=y|n
   * [ENROOT_MOUNT_HOME=y|n] CLUSTERRUN_RUN_ID=ID enroot start FLAGS --env CLUSTERRUN_RUN_ID=ID NAME
   * [/bin/sh PROOF] DAEMON}. The enroot settings ride along explicitly ({@link #enrootEnvironment})
   * because enroot reads them from the environment, and a remote node's configuration may say
   * otherwise. With a proof script (a path inside the container, on the workspace mount), the
   * container runs it first: it leaves the daemon's proof on its standard error and execs the
   * daemon (Open MPI finds the daemon by its word, {@code orted} or {@code prted}, and appends its
   * own arguments).
   *
   * @param proofScript the run's proof script inside the container, or null for none
   */
  public static List<String> words(
      EnrootArgs.ContainerFlags flags,
      Boolean mountHome,
      String name,
      Daemon daemon,
      String runId,
      String proofScript) {
    List<String> w = new ArrayList<>(List.of("env"));
    enrootEnvironment(flags, mountHome).forEach((k, v) -> w.add(k + "=" + v));
    // In the environment of the node's enroot start too (and its hooks), not only the container's.
    w.add(RUN_ID_VAR + "=" + runId);
    List<String> cmd = new ArrayList<>();
    if (proofScript != null) {
      cmd.add("/bin/sh");
      cmd.add(proofScript);
    }
    cmd.add(daemon.command());
    w.addAll(EnrootArgs.start(flags, List.of(RUN_ID_VAR + "=" + runId), name, cmd));
    for (String word : w) {
      for (int i = 0; i < word.length(); i++) {
        char c = word.charAt(i);
        if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
          throw new BadInputException(
              "launch agent",
              "the word '"
                  + word.replace("\n", "\\n")
                  + "' holds white space, which Open MPI's "
                  + "launch agent cannot carry (it splits the agent on spaces); rename the path or value");
        }
      }
    }
    return w;
  }

  /**
   * The agent's words with its first step on the node, {@code /bin/sh JOIN} ({@link AgentJoin}),
   * before {@code enroot start}: the settings and the run id stay in its environment.
   */
  public static List<String> joining(List<String> words, String joinScript) {
    int at = words.indexOf(EnrootArgs.ENROOT);
    List<String> w = new ArrayList<>(words.subList(0, at));
    w.add("/bin/sh");
    w.add(joinScript);
    w.addAll(words.subList(at, words.size()));
    return w;
  }

  public static String string(List<String> words) {
    return ShellQuote.join(words);
  }
}
