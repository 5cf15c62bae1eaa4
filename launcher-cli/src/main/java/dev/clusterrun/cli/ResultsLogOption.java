package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.launch.EnvironmentLayer;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --workspace DIR}: whose results log {@code results} and its subcommands read. */
final class ResultsLogOption {
  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description =
          "Workspace whose log to read (default ~/clusterrun). Env: CLUSTERRUN_WORKSPACE.")
  Path workspace;

  /** The log; its problems (a workspace that is a file …) are bad input naming the setting. */
  ResultsLog log(RootCommand root) {
    ResultsLog log = ResultsLog.inWorkspace(workspace(root));
    String problem = log.problem();
    if (problem != null) {
      throw new BadInputException(subject(root), problem);
    }
    return log;
  }

  /** Reads the log; each damaged line is named on stderr and skipped. */
  ResultsLog.Contents read(RootCommand root) throws IOException {
    ResultsLog.Contents c = log(root).read();
    for (String p : c.problems()) {
      root.err.println("clusterrun: " + p + " (line skipped)");
    }
    return c;
  }

  /** Where the workspace came from, to name in messages. */
  private String subject(RootCommand root) {
    if (workspace != null) {
      return "--workspace";
    }
    String env = root.env.get(EnvironmentLayer.WORKSPACE);
    return env != null && !env.isBlank() ? EnvironmentLayer.WORKSPACE : "workspace";
  }

  Path workspace(RootCommand root) {
    if (workspace != null) {
      return workspace;
    }
    String env = root.env.get(EnvironmentLayer.WORKSPACE);
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String home = root.env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, "clusterrun");
  }
}
