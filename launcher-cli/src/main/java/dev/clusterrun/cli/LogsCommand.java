package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.RunLogs;
import dev.clusterrun.core.session.Console;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "logs")
final class LogsCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "RUN_ID", descriptionKey = "jobs.run-id")
  String runId;

  @Option(names = {"-f", "--follow"})
  boolean follow;

  @Mixin WorkspaceOption workspace;

  @Override
  public Integer call() throws Exception {
    RootCommand root = root();
    root.out.flush();
    return JobsFlow.logs(
            new RunLogs.Request(where(workspace).path(), runId, follow),
            new Console(null, root.rawOut, root.rawErr, null, null))
        .exitCode();
  }
}
