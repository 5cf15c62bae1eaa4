package dev.clusterrun.core.check;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.NodeShell;
import java.util.Map;

/**
 * One {@code clusterrun check}.
 *
 * @param hostfile the nodes (names as mpirun will use them) and their slots
 * @param head the node clusterrun runs on; must have a shell (normally a local one)
 * @param shells already-open shells by node name
 * @param connectFailures nodes that could not be connected to, with the problem
 * @param job the job's container name, mounts and mount-home, or {@link CheckJob#NONE}
 * @param expected what {@code clusterrun setup} installs
 * @param selection the checks to run
 */
public record CheckRequest(
    Hostfile hostfile,
    String head,
    Map<String, NodeShell> shells,
    Map<String, String> connectFailures,
    CheckJob job,
    ExpectedSetup expected,
    CheckSelection selection) {
  public CheckRequest {
    shells = Map.copyOf(shells);
    connectFailures = connectFailures == null ? Map.of() : Map.copyOf(connectFailures);
    job = job == null ? CheckJob.NONE : job;
    selection = selection == null ? CheckSelection.all() : selection;
  }
}
