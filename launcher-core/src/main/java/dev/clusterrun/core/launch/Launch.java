package dev.clusterrun.core.launch;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;

/**
 * A resolved job, ready to launch.
 *
 * @param jobFileText the job file, kept in the run directory (null when given by flags)
 */
public record Launch(
    Hostfile hostfile,
    ResolvedJob job,
    String runId,
    String jobFileText,
    LaunchOptions options,
    String clusterrunVersion) {}
