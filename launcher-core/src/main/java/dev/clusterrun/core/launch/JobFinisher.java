package dev.clusterrun.core.launch;

import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.session.Session;
import java.io.IOException;

/**
 * Runs after the checks passed (or were skipped) and before the job; returns the job to run, which
 * may differ from the one given (e.g. {@code hpl} finishes its command from probes inside the
 * container). {@code report} is null when the checks were skipped.
 */
@FunctionalInterface
public interface JobFinisher {
  JobFinisher NONE = (session, report, job) -> job;

  ResolvedJob finish(Session session, CheckReport report, ResolvedJob job)
      throws IOException, InterruptedException;
}
