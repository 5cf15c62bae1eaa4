package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.LaunchFlow;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "plan")
final class PlanCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin JsonOption json;
  @Mixin RunPlanOptions options;

  @Override
  public Integer call() {
    Plan plan = LaunchFlow.plan(options.request(nodes, root()));
    print(json.on ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
    return ExitCode.OK.value();
  }
}
