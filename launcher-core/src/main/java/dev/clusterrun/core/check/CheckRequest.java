package dev.clusterrun.core.check;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.spec.SshSpec;

/**
 * One {@code clusterrun check}.
 *
 * @param hostfile the nodes (names as mpirun will use them) and their slots
 * @param ssh how to reach them: the explicit settings, over each node's OpenSSH configuration
 * @param job the job's container name, mounts and mount-home, or {@link CheckJob#NONE}
 * @param selection the checks to run
 */
public record CheckRequest(Hostfile hostfile, SshSpec ssh, CheckJob job, CheckSelection selection) {
  public CheckRequest {
    ssh = ssh == null ? SshSpec.EMPTY : ssh;
    job = job == null ? CheckJob.NONE : job;
    selection = selection == null ? CheckSelection.all() : selection;
  }
}
