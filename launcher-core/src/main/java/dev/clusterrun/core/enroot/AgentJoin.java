package dev.clusterrun.core.enroot;

import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's container begun during the checks, and joined by the run's daemon there. Starting a
 * container ({@code enroot start}: its mounts and every hook, the NVIDIA hook among them on a GPU
 * node) is most of what a daemon's start costs; the hand-typed command pays it on every node only
 * once mpirun's daemon arrives there, one level of Open MPI's tree after the other. clusterrun
 * begins each node's container over its connection while the checks still run ({@code
 * warm-hold.sh}: the same words as the launch agent's, without the run id), holding its first
 * process; the launch agent's first step on the node ({@code agent-join.sh}, a file of the run)
 * then runs the daemon inside it with enroot's {@code enroot exec PID} (the process's namespaces,
 * working directory and environment, plus the run id). Where nothing was begun, or it was begun
 * with other words, or the container's file changed since, or it has ended, the agent starts the
 * container as it always did: the join only ever saves time.
 */
public final class AgentJoin {
  /** The agent's first step, a file in the run directory. */
  public static final String FILE = "agent-join.sh";

  private static final ShellScript JOIN = ShellScript.load(AgentJoin.class, FILE);
  private static final ShellScript HOLD = ShellScript.load(AgentJoin.class, "warm-hold.sh");

  private AgentJoin() {}

  /**
   * What a held container is started with, and how many words of the agent's own start ({@code
   * enroot start FLAGS… CONTAINER}, with the run id) {@code agent-join.sh} replaces when it joins.
   */
  public record Held(List<String> words, int count) {
    public Held {
      words = List.copyOf(words);
    }

    /** The words' key: the same words give the same key, on the head and in the run's file. */
    public String key() {
      return Sha256.hex(String.join("\0", words) + "\0").substring(0, 16);
    }
  }

  /**
   * The held container's words for a job's container flags: {@code env} with the enroot settings
   * ({@link LaunchAgent#enrootEnvironment}), then {@code enroot start FLAGS… CONTAINER}; and the
   * count of the agent's {@code enroot start} words, which carry the run id besides.
   */
  public static Held held(EnrootArgs.ContainerFlags flags, Boolean mountHome, String container) {
    List<String> w = new ArrayList<>(List.of("env"));
    LaunchAgent.enrootEnvironment(flags, mountHome).forEach((k, v) -> w.add(k + "=" + v));
    w.addAll(EnrootArgs.start(flags, List.of(), container, List.of()));
    int count =
        EnrootArgs.start(flags, List.of(LaunchAgent.RUN_ID_VAR + "=x"), container, List.of())
            .size();
    return new Held(w, count);
  }

  /** The run's {@code agent-join.sh}: its parameters first (the key and the count). */
  public static String script(Held held) {
    return JOIN.before(List.of(held.key(), Integer.toString(held.count())));
  }

  /** What a node runs to begin and hold run {@code runId}'s container ({@code warm-hold.sh}). */
  public static String holdScript(String runId, Held held) {
    List<String> args = new ArrayList<>(List.of(runId, held.key()));
    args.addAll(held.words());
    return HOLD.with(args);
  }
}
