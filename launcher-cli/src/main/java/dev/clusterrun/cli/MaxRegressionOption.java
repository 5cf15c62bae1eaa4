package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import picocli.CommandLine.Option;

/**
 * {@code --max-regression PCT}: how far a figure may get worse, in percent. {@code hpl} and {@code
 * bench} take it with {@code --baseline} only (null when not given); {@code results compare} and
 * {@code report} have {@link BenchSettings#DEFAULT_MAX_REGRESSION} as their default ({@link
 * #withDefault}). What it means to each is under its own name in {@code Help.properties}.
 */
final class MaxRegressionOption {
  @Option(
      names = "--max-regression",
      paramLabel = "PCT",
      description =
          "With --baseline: fail (exit 1) when the headline fell by more than PCT percent."
              + " Default: "
              + BenchSettings.DEFAULT_MAX_REGRESSION
              + ".")
  Double pct;

  /**
   * The option with {@link BenchSettings#DEFAULT_MAX_REGRESSION} as its default, for a command that
   * always judges with a bound ({@code results compare}): picocli keeps a mixin field's own value.
   */
  static MaxRegressionOption withDefault() {
    MaxRegressionOption o = new MaxRegressionOption();
    o.pct = BenchSettings.DEFAULT_MAX_REGRESSION;
    return o;
  }
}
