package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.session.Console;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

@Command(
    name = "clusterrun",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Run containerized multi-node MPI jobs on bare-metal nodes with enroot: no Slurm, no daemon.",
      ""
    },
    subcommands = {
      PlanCommand.class,
      RunCommand.class,
      CheckCommand.class,
      SetupCommand.class,
      HplCommand.class,
      BenchCommand.class,
      ResultsCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
    })
final class RootCommand implements Callable<Integer> {
  final java.io.PrintStream rawOut;
  final java.io.PrintStream rawErr;
  final PrintWriter out;
  final PrintWriter err;
  final Map<String, String> env;

  @Spec CommandSpec spec;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description =
          "Print the exact commands before running them, and the stack trace of an internal"
              + " error (exit 70); bad input never gets one.")
  boolean verbose;

  RootCommand(
      java.io.PrintStream rawOut,
      java.io.PrintStream rawErr,
      PrintWriter out,
      PrintWriter err,
      Map<String, String> env) {
    this.rawOut = rawOut;
    this.rawErr = rawErr;
    this.out = out;
    this.err = err;
    this.env = env;
  }

  /** Where a command speaks: progress and notes on stderr, the job's output passed through. */
  Console console() {
    return new Console(TerminalProgress.forTerminal(err), rawOut, rawErr, new InterruptSignals());
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return ExitCode.BAD_INPUT.value();
  }
}
