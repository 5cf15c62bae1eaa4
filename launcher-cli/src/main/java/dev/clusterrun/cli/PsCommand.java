package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.RunList;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(mixinStandardHelpOptions = true, name = "ps", sortOptions = false)
final class PsCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin NodesOption nodes;

  @Option(names = "--json", descriptionKey = "ps.json")
  boolean json;

  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    RunList runs =
        JobsFlow.ps(
            new JobsFlow.PsRequest(nodes.read(), ssh.explicit()), root.console().progress());
    root.out.print(json ? runs.renderJson() : runs.renderTable());
    root.out.flush();
    runs.unreachable().forEach((n, p) -> root.err.println("clusterrun: " + n + ": " + p));
    return runs.unreachable().isEmpty() ? ExitCode.OK.value() : ExitCode.CHECK_FAILED.value();
  }
}
