package dev.clusterrun.cli;

import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.bench.ResultsOutcome;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --workspace DIR}: whose results log {@code results} and its subcommands read. */
final class ResultsLogOption {
  @Option(names = "--workspace", paramLabel = "DIR", descriptionKey = "results-log.workspace")
  Path workspace;

  /** Whose log: this flag, else the environment's workspace, else ~/clusterrun. */
  WorkspaceDir where(RootCommand root) {
    return new WorkspaceDir(workspace, root.env);
  }

  /** Prints what a results command gave: the skipped lines and its note on stderr, then stdout. */
  static int render(ResultsOutcome o, RootCommand root) {
    for (String p : o.skipped()) {
      root.err.println("clusterrun: " + p + " (line skipped)");
    }
    for (String line : o.stdout()) {
      root.out.println(line);
    }
    root.out.flush();
    if (o.note() != null) {
      root.err.println("clusterrun: " + o.note());
    }
    return o.exitCode();
  }
}
