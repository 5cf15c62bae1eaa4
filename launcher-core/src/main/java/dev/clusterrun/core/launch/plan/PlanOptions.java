package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.io.JobIo;

/**
 * What a plan is made for besides the job and the nodes ({@link Planner#plan}).
 *
 * @param runId the run's id (see {@link Planner#newRunId})
 * @param daemon the daemon the agent starts: orted (Open MPI 4) or prted (Open MPI 5)
 * @param hook true when the node hook hands the agent to mpirun; false ({@code --no-hook}) passes
 *     it with {@code enroot start --env} instead
 * @param sshMasters the directory of the head's SSH master connections mpirun's ssh rides on
 *     ({@code SshMasters}), null for none
 * @param io the job's input and its ranks' output ({@code --stdin}, {@code --label}, {@code
 *     --output-per-rank}): mpirun's words for them
 */
public record PlanOptions(
    String runId,
    LaunchAgent.Daemon daemon,
    boolean hook,
    boolean daemonDetected,
    NetworkPick network,
    String sshMasters,
    JobIo io) {
  public PlanOptions {
    io = io == null ? JobIo.DEFAULT : io;
  }

  /** A daemon given explicitly ({@code --mpi-daemon orted|prted}, or detected by {@code run}). */
  public PlanOptions(String runId, LaunchAgent.Daemon daemon, boolean hook) {
    this(runId, daemon, hook, false);
  }

  /** The network not settled yet (as {@code plan} shows it: no node asked). */
  public PlanOptions(
      String runId, LaunchAgent.Daemon daemon, boolean hook, boolean daemonDetected) {
    this(runId, daemon, hook, daemonDetected, null, null, null);
  }

  /** These options with the network settled. */
  public PlanOptions withNetwork(NetworkPick pick) {
    return new PlanOptions(runId, daemon, hook, daemonDetected, pick, sshMasters, io);
  }

  /** These options with mpirun's ssh riding on the head's master connections in {@code dir}. */
  public PlanOptions withSshMasters(String dir) {
    return new PlanOptions(runId, daemon, hook, daemonDetected, network, dir, io);
  }

  /** These options with the job's input and output as {@code io} says. */
  public PlanOptions withIo(JobIo v) {
    return new PlanOptions(runId, daemon, hook, daemonDetected, network, sshMasters, v);
  }
}
