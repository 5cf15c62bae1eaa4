package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.PsOutcome;
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
    PsOutcome o =
        JobsFlow.ps(
            new JobsFlow.PsRequest(nodes.read(root().env), ssh.settings(), where(workspace).path()),
            root().console().progress());
    print(json.on ? o.runs().renderJson() : o.runs().renderTable());
    o.runs().unreachable().forEach((n, p) -> note(n + ": " + p));
    return o.exitCode();
  }
}
