package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.RunList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ps")
final class PsCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin JsonOption json;
  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    RunList runs =
        JobsFlow.ps(
            new JobsFlow.PsRequest(nodes.read(root().env), ssh.explicit()),
            root().console().progress());
    print(json.on ? runs.renderJson() : runs.renderTable());
    runs.unreachable().forEach((n, p) -> note(n + ": " + p));
    return runs.unreachable().isEmpty() ? ExitCode.OK.value() : ExitCode.CHECK_FAILED.value();
  }
}
