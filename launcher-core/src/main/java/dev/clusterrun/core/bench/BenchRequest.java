package dev.clusterrun.core.bench;

import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.LaunchOptions;
import java.util.List;

/**
 * One {@code hpl} or {@code bench PRESET}.
 *
 * @param input the hostfile, the job flags (no command: the preset makes it), the environment
 * @param extraArgs words that replace the preset's default benchmark arguments
 * @param clusterrunVersion kept in {@code summary.json}
 */
public record BenchRequest(
    BenchPreset preset,
    JobInput input,
    LaunchOptions launch,
    BenchSettings settings,
    List<String> extraArgs,
    String clusterrunVersion) {
  public BenchRequest {
    extraArgs = extraArgs == null ? List.of() : List.copyOf(extraArgs);
  }
}
