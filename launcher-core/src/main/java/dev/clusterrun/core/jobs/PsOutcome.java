package dev.clusterrun.core.jobs;

import dev.clusterrun.core.ExitCode;

/** How a {@code clusterrun ps} ended: the runs the nodes showed, and the exit code that says it. */
public record PsOutcome(RunList runs) {
  /** 0 when every node was asked, else 3: the list may miss runs of the nodes not reached. */
  public int exitCode() {
    return runs.unreachable().isEmpty() ? ExitCode.OK.value() : ExitCode.CHECK_FAILED.value();
  }
}
