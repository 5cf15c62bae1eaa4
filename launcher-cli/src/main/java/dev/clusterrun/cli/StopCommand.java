package dev.clusterrun.cli;

import dev.clusterrun.core.jobs.JobsFlow;
import dev.clusterrun.core.jobs.RunDirectories;
import dev.clusterrun.core.jobs.StopOutcome;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(mixinStandardHelpOptions = true, name = "stop", sortOptions = false)
final class StopCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Parameters(index = "0", paramLabel = "RUN_ID", descriptionKey = "jobs.run-id")
  String runId;

  @Mixin NodesOption nodes;

  @Option(names = "--signal", paramLabel = "SIG")
  String signal = "INT";

  @Option(names = "--workspace", paramLabel = "DIR", descriptionKey = "jobs.workspace")
  Path workspace;

  @Option(names = "--json", descriptionKey = "stop.json")
  boolean json;

  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    StopOutcome o =
        JobsFlow.stop(
            new JobsFlow.StopRequest(
                nodes.read(),
                ssh.explicit(),
                runId,
                signal,
                RunDirectories.workspace(workspace, root.env)),
            root.console().progress());
    if (json) {
      root.out.print(o.renderJson());
      root.out.flush();
    }
    o.lines().forEach(l -> root.err.println("clusterrun: " + l));
    return o.exitCode();
  }
}
