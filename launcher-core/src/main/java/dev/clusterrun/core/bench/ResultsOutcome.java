package dev.clusterrun.core.bench;

import java.util.List;

/**
 * How a {@code results} command ended: its stdout, the log lines it skipped (damaged), a note for
 * people, and the exit code.
 *
 * @param stdout lines for stdout
 * @param skipped why each damaged line of the log was skipped
 * @param note one line for people, or null
 */
public record ResultsOutcome(List<String> stdout, List<String> skipped, String note, int exitCode) {
  public ResultsOutcome {
    stdout = List.copyOf(stdout);
    skipped = List.copyOf(skipped);
  }
}
