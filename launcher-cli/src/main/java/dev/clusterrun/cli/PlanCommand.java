package dev.clusterrun.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "plan",
    description = "Print the exact commands a run would execute, touching no node.")
final class PlanCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Override
  public Integer call() {
    root.err.println("clusterrun: plan: not built yet in this version");
    return ExitCodes.BAD_INPUT;
  }
}
