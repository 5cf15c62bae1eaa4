package dev.clusterrun.cli;

import dev.clusterrun.core.WorkspaceDir;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the subcommands share: {@code -h} and {@code -V} (clusterrun's version), options in the
 * order they are declared, the root's streams and environment. A subcommand translates its options
 * into one core call and renders what came back; its exit code is the outcome's.
 */
@Command(
    mixinStandardHelpOptions = true,
    sortOptions = false,
    versionProvider = VersionProvider.class)
abstract class BaseCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The root command: its streams, the environment, {@code --verbose}. */
  RootCommand root() {
    return (RootCommand) spec.root().userObject();
  }

  /** Prints {@code text} on stdout as it is. */
  void print(String text) {
    root().out.print(text);
    root().out.flush();
  }

  /** Prints each line on stdout. */
  void lines(Iterable<String> lines) {
    for (String line : lines) {
      root().out.println(line);
    }
    root().out.flush();
  }

  /**
   * The workspace a command reads (its image cache, its results log): {@code --workspace}, else the
   * environment's, else ~/clusterrun, as run finds it.
   */
  WorkspaceDir where(WorkspaceOption workspace) {
    return new WorkspaceDir(workspace.dir, root().env);
  }

  /** Prints a note on stderr as {@code clusterrun: NOTE}. */
  void note(String note) {
    root().err.println("clusterrun: " + note);
  }
}
