package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.RunDirectories;
import dev.clusterrun.core.jobs.RunLogs;
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
    return new RunLogs(root.rawOut, root.rawErr, RunLogs.Pause.REAL)
        .show(new RunLogs.Request(RunDirectories.workspace(workspace.dir, root.env), runId, follow))
        .exitCode();
  }
}
