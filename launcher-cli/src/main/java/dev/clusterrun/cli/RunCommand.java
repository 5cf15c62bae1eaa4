package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.LaunchOutcome;
import dev.clusterrun.core.launch.LaunchRequest;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "run")
final class RunCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin RunPlanOptions options;

  @Override
  public Integer call() throws Exception {
    LaunchRequest rq = options.request(nodes, root());
    return options.run.start(
        root(),
        console -> {
          LaunchOutcome outcome = LaunchFlow.run(rq, console);
          render(outcome, root().err);
          return outcome.exitCode();
        });
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
