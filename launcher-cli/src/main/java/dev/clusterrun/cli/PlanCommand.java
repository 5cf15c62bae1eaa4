package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.PlanOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "plan")
final class PlanCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin JsonOption json;
  @Mixin RunPlanOptions options;

  @Override
  public Integer call() {
    PlanOutcome outcome = LaunchFlow.show(options.request(nodes, root()), json.on);
    print(outcome.stdout());
    return outcome.exitCode();
  }
}
