package dev.clusterrun.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Subcommands announced but not built yet: they say so and exit 2. */
final class NotBuiltCommands {
  private NotBuiltCommands() {}

  abstract static class NotBuilt implements Callable<Integer> {
    @ParentCommand RootCommand root;

    @Parameters(hidden = true)
    List<String> ignored;

    abstract String name();

    @Override
    public Integer call() {
      root.err.println("clusterrun: " + name() + ": not built yet in this version");
      return ExitCodes.BAD_INPUT;
    }
  }

  @Command(name = "hpl", description = "Run NVIDIA HPL across the nodes (not built yet).")
  static final class Hpl extends NotBuilt {
    @Override
    String name() {
      return "hpl";
    }
  }

  @Command(name = "bench", description = "Run a benchmark preset (not built yet).")
  static final class Bench extends NotBuilt {
    @Override
    String name() {
      return "bench";
    }
  }

  @Command(name = "results", description = "List past benchmark results (not built yet).")
  static final class Results extends NotBuilt {
    @Override
    String name() {
      return "results";
    }
  }
}
