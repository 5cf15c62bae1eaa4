package dev.clusterrun.core.setup;

import dev.clusterrun.core.ExitCode;

/** How a {@code clusterrun setup} ended: its report, and the exit code that says it. */
public record SetupOutcome(SetupReport report) {
  /** {@link ExitCode#OK} when no node failed, else {@link ExitCode#SETUP_FAILED}. */
  public int exitCode() {
    return (report.ok() ? ExitCode.OK : ExitCode.SETUP_FAILED).value();
  }
}
