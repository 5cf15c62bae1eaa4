package dev.clusterrun.cli;

import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.image.ImagesOutcome;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --workspace DIR}: whose image cache {@code images} and {@code images prune} look at. */
final class ImagesWorkspaceOption {
  @Option(names = "--workspace", paramLabel = "DIR", descriptionKey = "images.workspace")
  Path workspace;

  /** Whose cache: this flag, else the environment's workspace, else ~/clusterrun (as run's). */
  WorkspaceDir where(RootCommand root) {
    return new WorkspaceDir(workspace, root.env);
  }

  /** Prints what an images command gave: its data on stdout, then its notes on stderr. */
  static int render(ImagesOutcome o, RootCommand root) {
    for (String line : o.stdout()) {
      root.out.println(line);
    }
    root.out.flush();
    for (String n : o.notes()) {
      root.err.println("clusterrun: " + n);
    }
    return o.exitCode();
  }
}
