package dev.clusterrun.core.launch;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.launch.run.RunSummary;
import java.util.Map;

/** How a launch ended: stopped before the job (and why), or run ({@link Ran}). */
public sealed interface LaunchOutcome {
  /** What clusterrun exits with: a failed check's code for every outcome that stopped the job. */
  default int exitCode() {
    return ExitCode.CHECK_FAILED.value();
  }

  /** The summary of the run, or null when it stopped before the job. */
  default RunSummary summary() {
    return null;
  }

  /** A check failed; nothing was started. */
  record ChecksFailed(CheckReport report) implements LaunchOutcome {}

  /** The workspace, mounted into every container, is not the same storage everywhere. */
  record WorkspaceNotShared(String workspace, String problem) implements LaunchOutcome {}

  /** With {@code --skip-checks}: nodes that could not be reached, and why. */
  record Unreachable(Map<String, String> nodes) implements LaunchOutcome {}

  /**
   * The job's registry image could not be pinned to a digest (the registry refused, or cannot be
   * reached and no import of it is cached); nothing was started.
   *
   * @param problem one line naming registry, repository, tag and the error
   * @param fix what to do, or null
   */
  record ImageUnavailable(String problem, String fix) implements LaunchOutcome {}

  /** The run went ahead: its summary says how it ended. */
  record Ran(RunSummary summary) implements LaunchOutcome {
    @Override
    public int exitCode() {
      return summary.exitCode();
    }
  }
}
