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

@Command(
    mixinStandardHelpOptions = true,
    name = "plan",
    sortOptions = false,
    description = {
      "Print the exact commands a run would execute, touching no node.",
      "  clusterrun plan --nodes hosts.txt --container-image=IMAGE hostname",
      "  clusterrun plan job.yaml --nodes hosts.txt --json",
      "Takes every option of `clusterrun run`, and its words the same way: the first word that"
          + " is not an option starts the command (or put it after --); a first word ending in"
          + " .yaml or .yml is the job file.",
      "Shows the enroot import/create"
          + " steps, the head's enroot start … mpirun command, the launch agent, the hostfile"
          + " mpirun reads, and where each setting came from (flag, environment, file, default)."
    })
final class PlanCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Mixin NodesOption nodes;

  @Option(names = "--json", description = "Print the plan as JSON.")
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
      description = "The job file (ending in .yaml or .yml), then the command and its arguments.")
  CommandWords words;

  @Override
  public Integer call() {
    Plan plan =
        LaunchFlow.plan(
            new LaunchRequest(
                launcher.withLauncher(
                    job.input(nodes.path, CommandWords.split(spec, words), ssh, root.env)),
                launcher.options(run.options(job)),
                VersionProvider.version()));
    root.out.print(json ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
    root.out.flush();
    return ExitCode.OK.value();
  }
}
