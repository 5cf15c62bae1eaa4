package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.launch.proof.DaemonProof;
import java.util.Set;

/**
 * The hosts the job's own mpirun arguments choose ({@link DaemonProof#chosenHosts}): only their
 * daemons must prove themselves; none when a file of the job's decides.
 *
 * @param by the arguments, for people
 */
public record ChosenHosts(Set<String> hosts, String by) {}
