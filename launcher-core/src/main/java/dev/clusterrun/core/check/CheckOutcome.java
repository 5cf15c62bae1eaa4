package dev.clusterrun.core.check;

import dev.clusterrun.core.ExitCode;

/** How a {@code clusterrun check} ended: its report, and the exit code that says it. */
public record CheckOutcome(CheckReport report) {
  /** {@link ExitCode#OK} when no check failed, else {@link ExitCode#CHECK_FAILED}. */
  public int exitCode() {
    return (report.passed() ? ExitCode.OK : ExitCode.CHECK_FAILED).value();
  }
}
