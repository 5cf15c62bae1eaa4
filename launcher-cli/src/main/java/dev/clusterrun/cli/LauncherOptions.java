package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.spec.JobFlags.Choice;
import picocli.CommandLine.Option;

/**
 * How {@code run} (and {@code plan}) start the job's processes and show their output: {@code
 * --launcher}, {@code --label}, {@code --output-per-rank} and the options of the per-node launcher.
 * Not on {@code hpl} and {@code bench}, whose presets are mpirun jobs.
 */
final class LauncherOptions {
  @Option(
      names = "--launcher",
      paramLabel = "mpirun|per-node",
      completionCandidates = Candidates.Launchers.class)
  String launcher;

  @Option(names = "--label")
  boolean label;

  @Option(names = "--no-label")
  boolean noLabel;

  @Option(names = "--keep-going")
  boolean keepGoing;

  @Option(names = "--output-per-rank")
  boolean outputPerRank;

  /** The launch options with the output labels, {@code --keep-going} and per-rank files. */
  LaunchOptions options(LaunchOptions o) {
    return o.perNode(new Choice("--label", label, "--no-label", noLabel).value(), keepGoing)
        .withIo(o.stdin(), outputPerRank);
  }
}
