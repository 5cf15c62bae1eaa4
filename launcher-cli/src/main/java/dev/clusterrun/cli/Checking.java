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
import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.ShellQuote;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * Where a directory that must be shared is not: {@code headProblem} when the head (as the job
   * user) could not create it, else each node that did not see the head's token, with why.
   */
  record SharedPath(String headProblem, Map<String, String> notShared) {}

  /** Creates {@code path} on the head, then runs the sharing proof on it on every node. */
  static SharedPath proveShared(ClusterSession session, String path, ParallelRunner parallel) {
    ExecResult mk =
        session
            .shells
            .get(session.head)
            .run("mkdir -p -- " + ShellQuote.quote(path), Duration.ofSeconds(30));
    if (!mk.ok()) {
      return new SharedPath(mk.error() != null ? mk.error() : mk.stderr().strip(), Map.of());
    }
    Map<String, String> paths = new LinkedHashMap<>();
    session.shells.keySet().forEach(n -> paths.put(n, path));
    SharedPathProof.Result r =
        new SharedPathProof(parallel, PROBE_TIMEOUT).prove(session.head, session.shells, paths);
    Map<String, String> notShared = new LinkedHashMap<>();
    for (String n : session.shells.keySet()) {
      r.outcome(n)
          .filter(o -> o.status() != SharedPathProof.Status.SHARED)
          .ifPresent(o -> notShared.put(n, o.detail()));
    }
    return new SharedPath(null, notShared);
  }
}
