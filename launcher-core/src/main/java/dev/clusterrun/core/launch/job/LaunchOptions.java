package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.io.JobIo;
import java.util.List;

/**
 * How {@code run}, {@code hpl} and {@code bench} launch a job.
 *
 * @param skipChecks no check suite first ({@code --skip-checks})
 * @param canary the canary before the job, alone, or none
 * @param daemon the daemon the agent starts, or {@link Daemon#AUTO} to ask the container
 * @param hook the node hook hands over the agent; false ({@code --no-hook}) passes it with {@code
 *     enroot start --env}
 * @param label with {@code --launcher=per-node}: prefix each line of output with its node ({@code
 *     --label}/{@code --no-label}); null: when there is more than one node
 * @param keepGoing with {@code --launcher=per-node}: when a node fails, let the others finish
 *     ({@code --keep-going}) instead of stopping them
 * @param stdin who gets clusterrun's standard input ({@code --stdin}, {@link JobIo#parseStdin})
 * @param perRank keep each rank's output in its own files of the run directory ({@code
 *     --output-per-rank})
 */
public record LaunchOptions(
    boolean skipChecks,
    CanaryMode canary,
    Daemon daemon,
    boolean hook,
    Boolean label,
    boolean keepGoing,
    String stdin,
    boolean perRank) {
  public LaunchOptions {
    stdin = JobIo.parseStdin(stdin);
  }

  public LaunchOptions(boolean skipChecks, CanaryMode canary, Daemon daemon, boolean hook) {
    this(skipChecks, canary, daemon, hook, null, false, null, false);
  }

  /** The same options, with the output labels ({@code --label}) and {@code --keep-going}. */
  public LaunchOptions perNode(Boolean label, boolean keepGoing) {
    return new LaunchOptions(skipChecks, canary, daemon, hook, label, keepGoing, stdin, perRank);
  }

  /** The same options, with {@code --skip-checks}. */
  public LaunchOptions withoutChecks() {
    return new LaunchOptions(true, canary, daemon, hook, label, keepGoing, stdin, perRank);
  }

  /** The same options, with {@code --stdin} and {@code --output-per-rank}. */
  public LaunchOptions withIo(String stdinTarget, boolean outputPerRank) {
    return new LaunchOptions(
        skipChecks, canary, daemon, hook, label, keepGoing, stdinTarget, outputPerRank);
  }

  /** The job's input and output with mpirun: labels only when asked ({@code --label}). */
  public JobIo io() {
    return new JobIo(stdin, Boolean.TRUE.equals(label), perRank);
  }

  /** Whether the per-node output is labelled, for {@code nodes} nodes. */
  public boolean labels(int nodes) {
    return label == null ? nodes > 1 : label;
  }

  /** {@code --mpi-daemon}: the daemon the launch agent starts. */
  public enum Daemon {
    /** Asked of the container ({@code mpirun --version}): orted for Open MPI 4, prted for 5. */
    AUTO(null),
    ORTED(LaunchAgent.Daemon.ORTED),
    PRTED(LaunchAgent.Daemon.PRTED);

    private final LaunchAgent.Daemon fixed;

    Daemon(LaunchAgent.Daemon fixed) {
      this.fixed = fixed;
    }

    /** The daemon given, or null for {@link #AUTO}. */
    public LaunchAgent.Daemon fixed() {
      return fixed;
    }

    /** {@code auto}, {@code orted} and {@code prted}: the words {@code --mpi-daemon} takes. */
    public static List<String> words() {
      return List.of("auto", "orted", "prted");
    }

    /** {@code auto}, {@code orted} or {@code prted}, as {@code --mpi-daemon} takes them. */
    public static Daemon parse(String s) {
      return switch (s) {
        case "auto" -> AUTO;
        case "orted" -> ORTED;
        case "prted" -> PRTED;
        default ->
            throw new BadInputException(
                "--mpi-daemon", "expected auto, orted or prted, got '" + s + "'");
      };
    }
  }

  /**
   * The options of a run no run flag changed: the checks, no canary, the daemon asked of the
   * container ({@code auto}); the node hook unless {@code noHook}.
   */
  public static LaunchOptions standard(boolean noHook) {
    return of(false, false, false, "auto", noHook);
  }

  /** The options as the flags give them; contradicting flags are bad input. */
  public static LaunchOptions of(
      boolean skipChecks, boolean canaryOnly, boolean noCanary, String daemon, boolean noHook) {
    if (canaryOnly && noCanary) {
      throw new BadInputException("--canary", "contradicts --no-canary; give only one of them");
    }
    // The job's own launch proves every daemon; the canary is an explicit rehearsal only.
    CanaryMode canary = canaryOnly ? CanaryMode.ONLY : CanaryMode.OFF;
    return new LaunchOptions(skipChecks, canary, Daemon.parse(daemon), !noHook);
  }
}
