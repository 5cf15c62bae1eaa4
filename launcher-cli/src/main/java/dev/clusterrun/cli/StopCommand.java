package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.StopOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "stop")
final class StopCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "RUN_ID", descriptionKey = "jobs.run-id")
  String runId;

  @Mixin NodesOption nodes;

  @Option(names = "--signal", paramLabel = "SIG")
  String signal = "INT";

  @Mixin WorkspaceOption workspace;
  @Mixin JsonOption json;
  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    StopOutcome o =
        JobsFlow.stop(
            new JobsFlow.StopRequest(
                nodes.read(root().env), ssh.settings(), runId, signal, where(workspace).path()),
            root().console().progress());
    if (json.on) {
      print(o.renderJson());
    }
    o.lines().forEach(this::note);
    return o.exitCode();
  }
}
