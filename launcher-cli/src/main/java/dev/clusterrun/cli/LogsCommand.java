package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.jobs.RunDirectories;
import dev.clusterrun.core.jobs.RunLogs;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(mixinStandardHelpOptions = true, name = "logs", sortOptions = false)
final class LogsCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Parameters(index = "0", paramLabel = "RUN_ID", descriptionKey = "jobs.run-id")
  String runId;

  @Option(names = {"-f", "--follow"})
  boolean follow;

  @Option(names = "--workspace", paramLabel = "DIR", descriptionKey = "jobs.workspace")
  Path workspace;

  @Override
  public Integer call() throws Exception {
    root.out.flush();
    new RunLogs(root.rawOut, root.rawErr, RunLogs.Pause.REAL)
        .show(new RunLogs.Request(RunDirectories.workspace(workspace, root.env), runId, follow));
    return ExitCode.OK.value();
  }
}
