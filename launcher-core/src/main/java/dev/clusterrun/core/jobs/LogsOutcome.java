package dev.clusterrun.core.jobs;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import java.nio.file.Path;

/**
 * How a {@code clusterrun logs} ended: the run directory whose output it copied. A run id the
 * workspace has no run of is bad input ({@link BadInputException}, exit 2), not an outcome.
 */
public record LogsOutcome(Path runDir) {
  /** The exit code of {@code logs} once the output was copied: 0. */
  public int exitCode() {
    return ExitCode.OK.value();
  }
}
