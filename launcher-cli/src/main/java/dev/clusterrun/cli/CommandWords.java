package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.JobWords;
import java.util.ArrayList;
import java.util.List;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Takes the positional words of a command that runs something as {@link JobWords} reads them: the
 * first word that is not an option starts the command and keeps every word after it.
 */
final class CommandWords {
  String jobFile;

  final List<String> command = new ArrayList<>();

  /** How many arguments followed the job file on the command line, to place it against --. */
  private int afterJobFile = -1;

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
    if (jobFiles && w.jobFile == null && w.command.isEmpty() && JobWords.isJobFile(word)) {
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
  static JobWords split(CommandSpec spec, CommandWords w) {
    if (w == null) {
      return JobWords.NONE;
    }
    List<String> original = spec.commandLine().getParseResult().originalArgs();
    return JobWords.of(w.jobFile, w.afterJobFile, w.command, original);
  }
}
