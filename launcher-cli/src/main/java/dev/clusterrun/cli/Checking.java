package dev.clusterrun.cli;

import dev.clusterrun.core.check.CheckJob;
import dev.clusterrun.core.check.CheckProgress;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.CheckRequest;
import dev.clusterrun.core.check.CheckRunner;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.check.ExpectedSetup;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.ParallelRunner;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Runs the check suite over an open session; shared by {@code check} and {@code run}. */
final class Checking {
  static final Duration FACT_TIMEOUT = Duration.ofSeconds(30);
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private Checking() {}

  static ExpectedSetup expected() {
    ExpectedSetup std = ExpectedSetup.standard(LaunchAgentHook.VERSION);
    return new ExpectedSetup(
        std.sysconfDir(),
        std.hookFileName(),
        std.hookVersion(),
        LaunchAgentHook.sha256(),
        std.dropInFileName(),
        null);
  }

  static CheckReport run(
      ClusterSession session,
      Hostfile hostfile,
      CheckJob job,
      CheckSelection selection,
      ClusterSession.Progress progress) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(2, Math.min(session.fanout, session.shells.size() + 2)),
            r -> {
              Thread t = new Thread(r, "clusterrun-check");
              t.setDaemon(true);
              return t;
            });
    try {
      CheckRunner runner = new CheckRunner(ParallelRunner.on(pool), FACT_TIMEOUT, PROBE_TIMEOUT);
      return runner.run(
          new CheckRequest(
              hostfile,
              session.head,
              session.shells,
              session.unreachable,
              job,
              expected(),
              selection),
          new CheckProgress() {
            @Override
            public void phase(String phase, Set<String> nodes) {
              progress.phase(phase, List.copyOf(nodes));
            }

            @Override
            public void nodeAnswered(String node, Facts facts, Set<String> pending) {
              progress.pending("facts", List.copyOf(pending));
            }
          });
    } finally {
      progress.done("checks");
      pool.shutdownNow();
    }
  }
}
