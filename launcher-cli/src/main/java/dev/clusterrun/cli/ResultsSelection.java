package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.ResultsFlow;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** Which runs {@code results compare} and {@code results report} look at, and how they judge. */
final class ResultsSelection {
  @Option(
      names = "--since",
      paramLabel = "AGE|DATE",
      description =
          "Only runs started since then: an age (30m, 12h, 7d, 2w) or a date (2026-11-01, UTC).")
  String since;

  @Option(names = "--preset", paramLabel = "PRESET", description = "Only runs of this preset.")
  String preset;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description = "Only runs on this cluster (as `hpl`/`bench --cluster` named it).")
  String cluster;

  @Option(
      names = "--metric",
      paramLabel = "NAME",
      split = ",",
      description =
          "Only these metrics (repeatable or comma-separated); default: the headline and every"
              + " performance metric.")
  List<String> metrics;

  @Option(
      names = "--references",
      paramLabel = "FILE",
      description =
          "Expected values per cluster, preset and size (the file `hpl`/`bench --references`"
              + " takes): verdicts and reference bands come from it.")
  Path references;

  @Option(
      names = "--max-regression",
      paramLabel = "PCT",
      description =
          "How far a metric may get worse from the first run to the last before it is"
              + " `regressed` (without a reference). Default: ${DEFAULT-VALUE}.")
  double maxRegression = BenchSettings.DEFAULT_MAX_REGRESSION;

  ResultsFlow.Selection toSelection() {
    return new ResultsFlow.Selection(since, preset, cluster, metrics, references, maxRegression);
  }
}
