package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.ExitException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.ResourceBundle;
import picocli.CommandLine;

/** Wires the picocli command tree and maps every failure to the exit-code table. */
final class Cli {
  private final PrintStream rawOut;
  private final PrintStream rawErr;
  private final Map<String, String> env;

  Cli(PrintStream out, PrintStream err, Map<String, String> env) {
    this.rawOut = out;
    this.rawErr = err;
    this.env = env;
  }

  /** The whole command tree (usage, completion, man pages). */
  CommandLine commandLine() {
    return commandLine(null);
  }

  /**
   * The command tree for {@code words}: when they name a command (after the root's own options),
   * only that command is built, as picocli would parse them the same way in the whole tree; else
   * (no command, a misspelt one, {@code help}, {@code completion}) the whole tree.
   */
  CommandLine commandLine(String[] words) {
    RootCommand root = new RootCommand(rawOut, rawErr, env);
    PrintWriter out = root.out;
    PrintWriter err = root.err;
    CommandLine cl = new CommandLine(root);
    String only = named(words);
    for (Map.Entry<String, Class<?>> sub : RootCommand.SUBCOMMANDS.entrySet()) {
      if (only == null || only.equals(sub.getKey())) {
        cl.addSubcommand(sub.getKey(), sub.getValue());
      }
    }
    if (only == null || helpAsked(words)) {
      // The help texts only where usage may be shown: reading them cost every start about 12 ms.
      cl.setResourceBundle(ResourceBundle.getBundle(HELP_TEXTS));
    }
    cl.setOut(out);
    cl.setErr(err);
    // A command's own words are passed on as they are: `run … curl -d @body.json` must not make
    // picocli read a file named body.json.
    cl.setExpandAtFiles(false);
    cl.setExitCodeExceptionMapper(t -> ExitCode.BAD_INPUT.value());
    // picocli's own codes from the table: a bare `clusterrun` is invalid input (RootCommand), a
    // command that makes no core call ends with success (CompletionCommand).
    cl.getCommandSpec().exitCodeOnInvalidInput(ExitCode.BAD_INPUT.value());
    cl.getCommandSpec()
        .usageMessage()
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(ExitCode.table());
    for (CommandLine sub : cl.getSubcommands().values()) {
      sub.getCommandSpec().exitCodeOnSuccess(ExitCode.OK.value());
      var usage = sub.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
      if (usage.exitCodeList().isEmpty()) {
        usage.exitCodeList(ExitCode.table(sub.getCommandName()));
      }
    }
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine c = ex.getCommandLine();
          err.println("clusterrun: " + BadInputException.visible(ex.getMessage()));
          if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println("Try 'clusterrun " + commandPath(c) + "--help' for more information.");
          }
          return ExitCode.BAD_INPUT.value();
        });
    cl.setExecutionExceptionHandler(
        (ex, c, parseResult) -> {
          if (ex instanceof BadInputException bad) {
            // Bad input is the user's to fix, not clusterrun's: no stack trace, even with -v.
            err.println("clusterrun: " + bad.subject() + ": " + bad.problem());
            return bad.code().value();
          }
          if (ex instanceof ExitException stop) {
            err.println("clusterrun: " + BadInputException.visible(stop.getMessage()));
            return stop.code().value();
          }
          err.println(
              "clusterrun: internal error: "
                  + ex
                  + (root.verbose ? "" : " (run with --verbose for details)"));
          if (root.verbose) {
            ex.printStackTrace(err);
          }
          return ExitCode.INTERNAL.value();
        });
    return cl;
  }

  /** The help texts of every command ({@code Help.properties}). */
  static final String HELP_TEXTS = "dev.clusterrun.cli.Help";

  /**
   * Whether {@code args} may ask for usage: {@code --help}, or {@code -h} alone or among other
   * short options, before {@code --}.
   */
  private static boolean helpAsked(String[] args) {
    for (String a : args) {
      if (a.equals("--")) {
        return false;
      }
      if (a.equals("--help") || (a.startsWith("-") && !a.startsWith("--") && a.indexOf('h') > 0)) {
        return true;
      }
    }
    return false;
  }

  /** The command {@code args} name, or null when the whole tree is needed. */
  private static String named(String[] args) {
    if (args == null) {
      return null;
    }
    for (String a : args) {
      if (a.equals("-v") || a.equals("--verbose")) {
        continue; // the root's own option, before the command
      }
      boolean narrow =
          RootCommand.SUBCOMMANDS.containsKey(a) && !a.equals("help") && !a.equals("completion");
      return narrow ? a : null;
    }
    return null;
  }

  int execute(String... args) {
    CommandLine cl = commandLine(args);
    int code = cl.execute(args);
    cl.getOut().flush();
    cl.getErr().flush();
    return code;
  }

  private static String commandPath(CommandLine c) {
    StringBuilder b = new StringBuilder();
    for (CommandLine p = c; p != null && p.getParent() != null; p = p.getParent()) {
      b.insert(0, p.getCommandName() + " ");
    }
    return b.toString();
  }
}
