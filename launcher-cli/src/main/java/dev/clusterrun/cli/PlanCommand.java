package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchRequest;
import dev.clusterrun.core.launch.Plan;
import dev.clusterrun.core.launch.PlanRenderer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(mixinStandardHelpOptions = true, name = "plan", sortOptions = false)
final class PlanCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Mixin NodesOption nodes;

  @Option(names = "--json", descriptionKey = "plan.json")
  boolean json;

  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin LauncherOptions launcher;
  @Mixin SshOptions ssh;

  @Parameters(
      paramLabel = "[JOB.yaml] [CMD [ARGS...]]",
      index = "0..*",
      arity = "0..*",
      parameterConsumer = CommandWords.WithJobFile.class,
      descriptionKey = "plan.job-yaml-cmd-args")
  CommandWords words;

  @Override
  public Integer call() {
    Plan plan =
        LaunchFlow.plan(
            new LaunchRequest(
                job.input(
                    nodes.path, CommandWords.split(spec, words), ssh, root.env, launcher.launcher),
                launcher.options(run.options(job)),
                VersionProvider.version()));
    root.out.print(json ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
    root.out.flush();
    return ExitCode.OK.value();
  }
}
