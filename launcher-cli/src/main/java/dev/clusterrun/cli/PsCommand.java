package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.RunDirectories;
import dev.clusterrun.core.jobs.RunList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "ps")
final class PsCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin JsonOption json;
  @Mixin SshOptions ssh;
  @Mixin WorkspaceOption workspace;

  @Override
  public Integer call() throws InterruptedException {
    RunList runs =
        JobsFlow.ps(
            new JobsFlow.PsRequest(
                nodes.read(root().env),
                ssh.explicit(),
                RunDirectories.workspace(workspace.dir, root().env)),
            root().console().progress());
    print(json.on ? runs.renderJson() : runs.renderTable());
    runs.unreachable().forEach((n, p) -> note(n + ": " + p));
    return runs.exitCode();
  }
}
