package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.core.check.CheckJob;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.check.ParallelRunner;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.HeadCommands;
import dev.clusterrun.core.launch.JobRunner;
import dev.clusterrun.core.launch.Planner;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.spec.SshSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The run flow shared by {@code run}, {@code hpl} and {@code bench}: connect, check, prove the
 * workspace shared, then hand over to {@link JobRunner}, with Ctrl-C and SIGTERM turned into an
 * orderly stop on every node.
 */
final class JobLaunch {
  /** What happened; {@code result} is null when the run stopped before the job (checks). */
  record Outcome(int exitCode, JobRunner.Result result) {}

  /**
   * Runs after the checks passed (or were skipped) and before the job; returns the job to run,
   * which may differ from the one given (e.g. {@code hpl} finishes its command from probes inside
   * the container). {@code report} is null when the checks were skipped.
   */
  interface BeforeJob {
    ResolvedJob prepare(ClusterSession session, CheckReport report)
        throws IOException, InterruptedException;
  }

  private JobLaunch() {}

  static Outcome run(
      RootCommand root,
      Hostfile hostfile,
      ResolvedJob job,
      SshOptions sshFlags,
      RunOptions opts,
      boolean hook,
      String runId,
      String jobFileText)
      throws IOException, InterruptedException {
    return run(root, hostfile, job, sshFlags, opts, hook, runId, jobFileText, null);
  }

  static Outcome run(
      RootCommand root,
      Hostfile hostfile,
      ResolvedJob checkedJob,
      SshOptions sshFlags,
      RunOptions opts,
      boolean hook,
      String runId,
      String jobFileText,
      BeforeJob before)
      throws IOException, InterruptedException {
    ResolvedJob job = checkedJob;
    if (opts.canaryOnly && opts.noCanary) {
      throw new BadInputException("--canary", "contradicts --no-canary; give only one of them");
    }
    LaunchAgent.Daemon fixed =
        switch (opts.daemon) {
          case "auto" -> null;
          default -> Daemons.parse(opts.daemon);
        };
    SshSpec ssh =
        sshFlags.merge(
            new SshSpec(
                job.sshUser().value(),
                job.sshPort().value(),
                job.sshIdentity().value(),
                job.knownHosts().value(),
                job.connectTimeout().value(),
                job.fanout().value()));
    ClusterSession.Progress progress = ClusterSession.Progress.forTerminal(root.err);
    try (ClusterSession session = ClusterSession.open(hostfile, ssh, progress)) {
      CheckReport report = null;
      if (!opts.skipChecks) {
        EnumSet<CheckId> ids = EnumSet.allOf(CheckId.class);
        if (!hook) {
          ids.remove(CheckId.HOOK);
        }
        report =
            Checking.run(
                session,
                hostfile,
                new CheckJob(
                    job.containerName().value(), job.mounts().value(), job.mountHome().value()),
                new CheckSelection(ids),
                progress);
        if (!report.passed()) {
          root.err.print(report.renderTable());
          root.err.println(
              "clusterrun: run: checks failed; nothing was started (fix the above, or --skip-checks)");
          return new Outcome(ExitCodes.CHECK_FAILED, null);
        }
        String ws = job.workspacePath().value();
        String problem = proveWorkspace(session, ws);
        if (problem != null) {
          root.err.println("clusterrun: workspace " + ws + ": " + problem);
          return new Outcome(ExitCodes.CHECK_FAILED, null);
        }
        root.err.println("clusterrun: checks passed on " + hostfile.names().size() + " nodes");
      } else if (!session.unreachable.isEmpty()) {
        session.unreachable.forEach((n, p) -> root.err.println("clusterrun: " + n + ": " + p));
        return new Outcome(ExitCodes.CHECK_FAILED, null);
      }

      if (before != null) {
        job = before.prepare(session, report);
      }
      ResolvedJob toRun = job;
      JobRunner runner = new JobRunner(HeadCommands.LOCAL);
      JobRunner.CanaryMode canary =
          opts.canaryOnly
              ? JobRunner.CanaryMode.ONLY
              : opts.noCanary ? JobRunner.CanaryMode.OFF : JobRunner.CanaryMode.BEFORE;
      JobRunner.Request rq =
          new JobRunner.Request(
              d ->
                  Planner.plan(toRun, hostfile, new Planner.Options(runId, d, hook, fixed == null)),
              fixed,
              job.workspacePath().value(),
              session.shells,
              session.head,
              canary,
              jobFileText,
              new VersionProvider().getVersion()[0],
              root.rawOut,
              root.rawErr,
              line -> {
                root.err.println("clusterrun: " + line);
                root.err.flush();
              });
      JobRunner.Result result;
      try (Signals.Handler h = Signals.onInterrupt(runner::interrupt)) {
        result = runner.run(rq);
      }
      var s = result.summary();
      if (s.message() != null) {
        root.err.println("clusterrun: " + s.message());
      }
      root.err.printf(
          "clusterrun: run %s %s (exit %d) in %.1f s; run directory %s%n",
          s.runId(),
          s.outcome(),
          s.exitCode(),
          s.durationsSeconds().getOrDefault("total", 0.0),
          s.runDir());
      return new Outcome(result.exitCode(), result);
    }
  }

  /** The workspace is mounted into every container: it must exist, shared, on every node. */
  static String proveWorkspace(ClusterSession session, String ws) {
    var pool = Executors.newFixedThreadPool(Math.max(2, Math.min(64, session.shells.size())));
    try {
      Checking.SharedPath s = Checking.proveShared(session, ws, ParallelRunner.on(pool));
      if (s.headProblem() != null) {
        return "the head cannot create it: " + s.headProblem();
      }
      List<String> bad = new ArrayList<>();
      s.notShared().forEach((n, d) -> bad.add(n + " (" + d + ")"));
      return bad.isEmpty()
          ? null
          : "not shared with the head on "
              + String.join(", ", bad)
              + "; put the workspace on the shared filesystem";
    } finally {
      pool.shutdownNow();
    }
  }
}
