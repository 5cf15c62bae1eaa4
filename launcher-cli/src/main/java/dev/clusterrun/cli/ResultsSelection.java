package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Which log {@code results compare} and {@code results report} read, which of its runs they look
 * at, and how they judge.
 */
final class ResultsSelection {
  @Mixin WorkspaceOption workspace;

  @Option(names = "--since", paramLabel = "AGE|DATE")
  String since;

  @Option(names = "--preset", paramLabel = "PRESET")
  String preset;

  @Mixin ClusterOption cluster;

  @Option(names = "--metric", paramLabel = "NAME", split = ",")
  List<String> metrics;

  @Mixin ReferencesOption references;

  @Mixin MaxRegressionOption maxRegression = MaxRegressionOption.withDefault();

  ResultsFlow.Selection toSelection() {
    return new ResultsFlow.Selection(
        since, preset, cluster.name, metrics, references.file, maxRegression.pct);
  }
}
