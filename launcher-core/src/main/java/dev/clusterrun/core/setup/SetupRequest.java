package dev.clusterrun.core.setup;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.spec.SshSpec;

/**
 * One {@code clusterrun setup}.
 *
 * @param hostfile the nodes to configure (the head is configured too)
 * @param ssh how to reach them: the explicit settings, over each node's OpenSSH configuration
 * @param spec what every node is configured with
 * @param dryRun say what would change and change nothing
 */
public record SetupRequest(Hostfile hostfile, SshSpec ssh, SetupSpec spec, boolean dryRun) {}
