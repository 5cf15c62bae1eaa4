package dev.clusterrun.core.check;

import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SpecLoader;
import dev.clusterrun.core.spec.SshFlags;
import dev.clusterrun.core.spec.SshSpec;
import java.nio.file.Path;

/**
 * One {@code clusterrun check}.
 *
 * @param hostfile the nodes (names as mpirun will use them) and their slots
 * @param ssh how to reach them: the explicit settings, over each node's OpenSSH configuration
 * @param job the job's container name, mounts and mount-home, or {@link CheckJob#NONE}
 * @param selection the checks to run
 * @param workspace where the nodes' enroot versions are remembered ({@link EnrootVersions}), as
 *     {@code run} finds the workspace; null: every node starts {@code enroot version}
 */
public record CheckRequest(
    Hostfile hostfile, SshSpec ssh, CheckJob job, CheckSelection selection, Path workspace) {
  public CheckRequest {
    ssh = ssh == null ? SshSpec.EMPTY : ssh;
    job = job == null ? CheckJob.NONE : job;
    selection = selection == null ? CheckSelection.all() : selection;
  }

  /**
   * The check of what a person gave: the job file, when there is one, is read for its container
   * (what the checks look at) and its {@code ssh:} section, which the SSH flags override.
   *
   * @param jobFile the job file, or null
   */
  public static CheckRequest of(
      Hostfile hostfile, SshFlags ssh, Path jobFile, CheckSelection selection) {
    JobSpec file = jobFile == null ? null : SpecLoader.load(jobFile);
    CheckJob job = file == null ? CheckJob.NONE : CheckJob.of(file.container());
    SshSpec flags = ssh.toSpec();
    String fileWorkspace =
        file == null || file.workspace() == null ? null : file.workspace().path();
    return new CheckRequest(
        hostfile,
        file == null ? flags : flags.over(file.ssh()),
        job,
        selection,
        new WorkspaceDir(null, System.getenv()).path(fileWorkspace));
  }
}
