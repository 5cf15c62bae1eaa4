package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.LaunchRequest;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    name = "run",
    sortOptions = false,
    description = {
      "Run a job across the nodes, mpirun and its daemons inside the container (or, with"
          + " --launcher=per-node, the command once on every node inside the container there).",
      "  clusterrun run --nodes hosts.txt --container-image=IMAGE hostname",
      "  clusterrun run job.yaml --nodes hosts.txt",
      "As with srun, the first word that is not an option starts the command and the words"
          + " after it are the command's, options included (or put the command after --). A"
          + " first word ending in .yaml or .yml is the job file.",
      "Checks, the container once in the shared data path, a canary that"
          + " proves every rank is inside the container, then `enroot start … NAME mpirun …` on the head"
          + " with Open MPI's daemons started inside the same container on every other node.",
      "Output streams live; the run directory keeps the job, the plan, the logs and summary.json."
    })
final class RunCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Mixin NodesOption nodes;

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
  public Integer call() throws Exception {
    LaunchRequest rq =
        new LaunchRequest(
            launcher.withLauncher(
                job.input(nodes.path, CommandWords.split(spec, words), ssh, root.env)),
            launcher.options(run.options(job)),
            VersionProvider.version());
    LaunchOutcome outcome = LaunchFlow.run(rq, root.console());
    render(outcome, root.err);
    return outcome.exitCode();
  }

  /** What stopped a run before its job, for people; a run that went ahead said so itself. */
  static void render(LaunchOutcome outcome, PrintWriter err) {
    if (outcome instanceof LaunchOutcome.ChecksFailed c) {
      err.print(c.report().renderTable());
      err.println(
          "clusterrun: run: checks failed; nothing was started (fix the above, or --skip-checks)");
    } else if (outcome instanceof LaunchOutcome.WorkspaceNotShared w) {
      err.println("clusterrun: workspace " + w.workspace() + ": " + w.problem());
    } else if (outcome instanceof LaunchOutcome.Unreachable u) {
      u.nodes().forEach((n, p) -> err.println("clusterrun: " + n + ": " + p));
    }
    err.flush();
  }
}
