package dev.clusterrun.cli;

import dev.clusterrun.core.output.ClosedReader;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.terminal.ForegroundInput;
import dev.clusterrun.core.terminal.InterruptSignals;
import dev.clusterrun.core.terminal.StandardInput;
import dev.clusterrun.core.terminal.TerminalProgress;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
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
    usageHelpAutoWidth = true)
final class RootCommand implements Callable<Integer> {
  /**
   * The subcommands, in the order of the usage, by the name their {@code @Command} gives. {@link
   * Cli} adds them: all of them, or only the one a command line names (a command's start then pays
   * for its own options only).
   */
  static final Map<String, Class<?>> SUBCOMMANDS =
      byName(
          PlanCommand.class,
          RunCommand.class,
          CheckCommand.class,
          SetupCommand.class,
          HplCommand.class,
          BenchCommand.class,
          ScreenCommand.class,
          ResultsCommand.class,
          ImagesCommand.class,
          PsCommand.class,
          StopCommand.class,
          LogsCommand.class,
          CompletionCommand.class,
          CommandLine.HelpCommand.class);

  private static Map<String, Class<?>> byName(Class<?>... commands) {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    for (Class<?> c : commands) {
      m.put(c.getAnnotation(Command.class).name(), c);
    }
    return Collections.unmodifiableMap(m);
  }

  final PrintStream rawOut;
  final PrintStream rawErr;
  final PrintWriter out;
  final PrintWriter err;
  final Map<String, String> env;

  @Spec CommandSpec spec;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT)
  boolean verbose;

  /** Whether the reader of clusterrun's output has gone ({@code | head -1} ended). */
  final ClosedReader closedReader = new ClosedReader();

  RootCommand(PrintStream rawOut, PrintStream rawErr, Map<String, String> env) {
    // A reader gone (EPIPE) stops a running job as SIGPIPE would stop mpirun: exit 141.
    this.rawOut = closedReader.guard(rawOut);
    this.rawErr = closedReader.guard(rawErr);
    // UTF-8 whatever the locale: under LANG=C (cron, containers, ssh without locale forwarding)
    // the platform charset would print the table's marks as '?'.
    this.out = new PrintWriter(new OutputStreamWriter(this.rawOut, StandardCharsets.UTF_8), true);
    this.err = new PrintWriter(new OutputStreamWriter(this.rawErr, StandardCharsets.UTF_8), true);
    this.env = env;
  }

  /** Where a command speaks: progress and notes on stderr, the job's output passed through. */
  Console console() {
    return new Console(
        progress(err),
        rawOut,
        rawErr,
        closedReader.alongside(new InterruptSignals()),
        new ForegroundInput(StandardInput.stream()));
  }

  /** Progress for people on {@code err}, kept up to date in place on a terminal. */
  static Progress progress(PrintWriter err) {
    return new TerminalProgress(
        text -> {
          err.print(text);
          err.flush();
        },
        System.console() != null);
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return spec.exitCodeOnInvalidInput();
  }
}
