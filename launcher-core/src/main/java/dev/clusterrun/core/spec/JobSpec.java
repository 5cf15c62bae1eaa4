package dev.clusterrun.core.spec;

import java.time.Duration;
import java.util.List;

/**
 * A job as one layer gives it (the YAML file, the environment or the flags). Every field may be
 * null, meaning "this layer does not say"; {@code dev.clusterrun.core.launch.job.JobResolver}
 * merges the layers with precedence flag &gt; environment &gt; file &gt; default.
 *
 * @param name job name, used in run directory names
 * @param command the program and its arguments, as words (run by mpirun inside the container)
 * @param source where this layer came from, for messages (file name, "environment", "flags")
 * @param launcher how the job's processes start ({@code launcher:}, {@code --launcher})
 */
public record JobSpec(
    String name,
    ContainerSpec container,
    WorkspaceSpec workspace,
    MpiSpec mpi,
    List<String> command,
    SshSpec ssh,
    String source,
    LauncherKind launcher,
    Duration time) {

  /** A layer that does not say which launcher. */
  public JobSpec(
      String name,
      ContainerSpec container,
      WorkspaceSpec workspace,
      MpiSpec mpi,
      List<String> command,
      SshSpec ssh,
      String source) {
    this(name, container, workspace, mpi, command, ssh, source, null, null);
  }

  /** The same layer, saying which launcher (null: it does not say). */
  public JobSpec withLauncher(LauncherKind k) {
    return new JobSpec(name, container, workspace, mpi, command, ssh, source, k, time);
  }

  /**
   * The same layer, saying the wall-clock limit ({@code time:}, {@link TimeLimit}; zero: none;
   * null: it does not say).
   */
  public JobSpec withTime(Duration t) {
    return new JobSpec(name, container, workspace, mpi, command, ssh, source, launcher, t);
  }

  public static JobSpec empty(String source) {
    return new JobSpec(
        null, ContainerSpec.EMPTY, WorkspaceSpec.EMPTY, MpiSpec.EMPTY, null, SshSpec.EMPTY, source);
  }
}
