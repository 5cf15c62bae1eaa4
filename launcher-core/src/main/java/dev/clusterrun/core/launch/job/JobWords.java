package dev.clusterrun.core.launch.job;

import java.util.ArrayList;
import java.util.List;

/**
 * The positional words of a command that runs something, read as srun and mpirun read theirs: the
 * first word that is not an option starts the command, and everything after it, options included,
 * belongs to the command ({@code clusterrun run --nodes h --container-image=img.sqsh hostname -f}).
 * For {@code run} and {@code plan}, a first positional ending in {@code .yaml} or {@code .yml} is
 * the job file instead and options continue after it. {@code --} still ends the options: what
 * follows is the command, whatever its name.
 *
 * @param jobFile the job file, or null
 * @param command the command and its arguments, as given
 */
public record JobWords(String jobFile, List<String> command) {
  /** No job file, no command (the preset's own). */
  public static final JobWords NONE = new JobWords(null, List.of());

  public JobWords {
    command = List.copyOf(command);
  }

  /** Whether a first positional word names the job file. */
  public static boolean isJobFile(String word) {
    return word.endsWith(".yaml") || word.endsWith(".yml");
  }

  /**
   * The words as the parser took them, placed against the command line as given: a job file that
   * came after {@code --} is the command's first word, not a job file.
   *
   * @param jobFile the word taken for the job file, or null
   * @param afterJobFile how many arguments followed that word on the command line
   * @param command the words taken for the command
   * @param original the command line as given
   */
  public static JobWords of(
      String jobFile, int afterJobFile, List<String> command, List<String> original) {
    boolean afterDoubleDash = false;
    if (jobFile != null) {
      int at = original.size() - 1 - afterJobFile;
      int dd = original.indexOf("--");
      afterDoubleDash = dd >= 0 && dd < at;
    }
    if (!afterDoubleDash) {
      return new JobWords(jobFile, command);
    }
    List<String> words = new ArrayList<>();
    words.add(jobFile);
    words.addAll(command);
    return new JobWords(null, words);
  }
}
