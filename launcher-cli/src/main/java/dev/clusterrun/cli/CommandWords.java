package dev.clusterrun.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The positional words of a command that runs something, read as srun and mpirun read theirs: the
 * first word that is not an option starts the command, and everything after it, options included,
 * belongs to the command ({@code clusterrun run --nodes h --container-image=img.sqsh hostname -f}).
 * For {@code run} and {@code plan}, a first positional ending in {@code .yaml} or {@code .yml} is
 * the job file instead and options continue after it. {@code --} still ends the options: what
 * follows is the command, whatever its name.
 */
final class CommandWords {
  /** The job file, or null. */
  String jobFile;

  /** The command and its arguments, as given. */
  final List<String> command = new ArrayList<>();

  /** How many arguments followed the job file on the command line, to place it against --. */
  private int afterJobFile = -1;

  static boolean isJobFile(String word) {
    return word.endsWith(".yaml") || word.endsWith(".yml");
  }

  /** Job file (before the command) and command; for {@code run} and {@code plan}. */
  static final class WithJobFile implements IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec spec) {
      consume(args, argSpec, true);
    }
  }

  /** The words of the program only (no job file); for {@code hpl} and {@code bench}. */
  static final class CommandOnly implements IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec spec) {
      consume(args, argSpec, false);
    }
  }

  private static void consume(Stack<String> args, ArgSpec argSpec, boolean jobFiles) {
    CommandWords w = argSpec.getValue();
    if (w == null) {
      w = new CommandWords();
      argSpec.setValue(w);
    }
    String word = args.pop();
    if (jobFiles && w.jobFile == null && w.command.isEmpty() && isJobFile(word)) {
      w.jobFile = word;
      w.afterJobFile = args.size();
      return;
    }
    w.command.add(word);
    while (!args.isEmpty()) {
      w.command.add(args.pop());
    }
  }

  /** The words of a command as it was given ({@code spec}'s command line). */
  static CommandWords split(CommandSpec spec, CommandWords words) {
    return of(words, spec.commandLine().getParseResult().originalArgs());
  }

  /**
   * The words of {@code original} (the command line as given): a job file that came after {@code
   * --} is the command's first word, not a job file.
   */
  static CommandWords of(CommandWords parsed, List<String> original) {
    CommandWords w = new CommandWords();
    if (parsed == null) {
      return w;
    }
    boolean afterDoubleDash = false;
    if (parsed.jobFile != null) {
      int at = original.size() - 1 - parsed.afterJobFile;
      int dd = original.indexOf("--");
      afterDoubleDash = dd >= 0 && dd < at;
    }
    if (afterDoubleDash) {
      w.command.add(parsed.jobFile);
    } else {
      w.jobFile = parsed.jobFile;
    }
    w.command.addAll(parsed.command);
    return w;
  }
}
