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
      completionCandidates = Candidates.Launchers.class,
      description =
          "mpirun (default): mpirun in the container on the head, its daemons in the container on"
              + " every other node. per-node: the command once on every node of the hostfile, in"
              + " the container there, with torchrun's PET_* and MASTER_ADDR/MASTER_PORT/NODE_RANK"
              + " set (see docs/per-node.md). Job file: launcher.")
  String launcher;

  @Option(
      names = "--label",
      description =
          "per-node: prefix each line of output with its node (default with more than one node).")
  boolean label;

  @Option(names = "--no-label", description = "per-node: do not prefix output lines with the node.")
  boolean noLabel;

  @Option(
      names = "--keep-going",
      description =
          "per-node: when a node's command fails, let the other nodes finish instead of stopping"
              + " them.")
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
