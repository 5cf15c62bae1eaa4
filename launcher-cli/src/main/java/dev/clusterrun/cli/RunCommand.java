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

@Command(mixinStandardHelpOptions = true, name = "run", sortOptions = false)
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
      descriptionKey = "run.job-yaml-cmd-args")
  CommandWords words;

  @Override
  public Integer call() throws Exception {
    LaunchRequest rq =
        new LaunchRequest(
            job.input(
                nodes.path, CommandWords.split(spec, words), ssh, root.env, launcher.launcher),
            launcher.options(run.options(job)),
            VersionProvider.version());
    Integer detached = run.detachFrom(root);
    if (detached != null) {
      return detached;
    }
    LaunchOutcome outcome = LaunchFlow.run(rq, RunOptions.console(root));
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
    } else if (outcome instanceof LaunchOutcome.ImageUnavailable i) {
      err.println("clusterrun: image: " + i.problem());
      if (i.fix() != null && !i.fix().isEmpty()) {
        err.println("  fix: " + i.fix().replace("\n", "\n  "));
      }
    }
    err.flush();
  }
}
