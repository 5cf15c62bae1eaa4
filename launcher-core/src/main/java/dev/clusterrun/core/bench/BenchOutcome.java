package dev.clusterrun.core.bench;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.LaunchOutcome;
import java.util.List;

/**
 * How an {@code hpl} or {@code bench} ended.
 *
 * @param exitCode what clusterrun exits with (see {@link BenchFlow#verdict})
 * @param launch how the launch ended; null for a dry run
 * @param result the parsed result; null when the benchmark did not run
 * @param stdout what goes to stdout: the summary table, or (dry run) the plan
 */
public record BenchOutcome(
    int exitCode, LaunchOutcome launch, BenchResult result, List<String> stdout) {
  public BenchOutcome {
    stdout = List.copyOf(stdout);
  }

  /** A dry run: the plan, nothing touched. */
  static BenchOutcome dryRun(String planText) {
    return new BenchOutcome(ExitCode.OK.value(), null, null, List.of(planText));
  }
}
