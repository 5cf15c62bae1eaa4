package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.ResultsFlow;
import java.nio.file.Path;
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

  @Option(names = "--cluster", paramLabel = "NAME", descriptionKey = "results.cluster")
  String cluster;

  @Option(names = "--metric", paramLabel = "NAME", split = ",")
  List<String> metrics;

  @Option(names = "--references", paramLabel = "FILE", descriptionKey = "results.references")
  Path references;

  @Option(names = "--max-regression", paramLabel = "PCT", descriptionKey = "results.max-regression")
  double maxRegression = BenchSettings.DEFAULT_MAX_REGRESSION;

  ResultsFlow.Selection toSelection() {
    return new ResultsFlow.Selection(since, preset, cluster, metrics, references, maxRegression);
  }
}
