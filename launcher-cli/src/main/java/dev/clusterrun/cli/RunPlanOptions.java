package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchRequest;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What {@code run} and {@code plan} take after {@code --nodes}: the job's, the run's, the
 * launcher's and the SSH flags, then the job file and the command.
 */
final class RunPlanOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin LauncherOptions launcher;
  @Mixin SshOptions ssh;

  @Parameters(
      paramLabel = "[JOB.yaml] [CMD [ARGS...]]",
      index = "0..*",
      arity = "0..*",
      parameterConsumer = CommandWords.WithJobFile.class,
      descriptionKey = "job-yaml-cmd-args")
  CommandWords words;

  /** The run these options and {@code nodes} ask for. */
  LaunchRequest request(NodesOption nodes, RootCommand root) {
    return new LaunchRequest(
        job.input(nodes, CommandWords.split(command, words), ssh, root.env, launcher.launcher),
        launcher.options(run.options(job)),
        VersionProvider.version());
  }
}
