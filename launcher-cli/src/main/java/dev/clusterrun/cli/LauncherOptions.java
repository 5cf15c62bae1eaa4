package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchOptions;
import dev.clusterrun.core.spec.JobFlags.Choice;
import picocli.CommandLine.Option;

/**
 * How {@code run} (and {@code plan}) start the job's processes: {@code --launcher} and the options
 * of the per-node launcher. Not on {@code hpl} and {@code bench}, whose presets are mpirun jobs.
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

  /** The launch options with per-node's labels and {@code --keep-going}. */
  LaunchOptions options(LaunchOptions o) {
    return o.perNode(new Choice("--label", label, "--no-label", noLabel).value(), keepGoing);
  }
}
