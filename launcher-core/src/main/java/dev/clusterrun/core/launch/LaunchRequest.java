package dev.clusterrun.core.launch;

import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.LaunchOptions;

/**
 * One {@code clusterrun run} (or {@code plan}, which shows what it would do).
 *
 * @param clusterrunVersion kept in {@code summary.json}
 */
public record LaunchRequest(JobInput input, LaunchOptions options, String clusterrunVersion) {}
