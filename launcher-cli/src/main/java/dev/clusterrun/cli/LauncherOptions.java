package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.JobInput;
import dev.clusterrun.core.launch.LaunchOptions;
import dev.clusterrun.core.spec.SettingRules;
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

  /** The job input with {@code --launcher} in its flag layer. */
  JobInput withLauncher(JobInput in) {
    if (launcher == null) {
      return in;
    }
    return new JobInput(
        in.hostfile(),
        in.jobFile(),
        in.flags()
            .withLauncher(
                BadInputException.about("--launcher", () -> SettingRules.launcher(launcher))),
        in.env(),
        in.cwd());
  }

  /** The launch options with per-node's labels and {@code --keep-going}. */
  LaunchOptions options(LaunchOptions o) {
    if (label && noLabel) {
      throw new BadInputException("--label", "contradicts --no-label; give only one of them");
    }
    return o.perNode(label ? Boolean.TRUE : noLabel ? Boolean.FALSE : null, keepGoing);
  }
}
