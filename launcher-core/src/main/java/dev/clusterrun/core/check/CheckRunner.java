package dev.clusterrun.core.check;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.remote.NodeShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs {@code clusterrun check}: the fact script on every node in parallel (one round trip each),
 * then the shared-path proof and the head's SSH probe (side by side), then the {@link Checks}.
 * Every remote call has its own timeout, so a slow node never hides the others; a node that fails
 * is a result, not an exception.
 */
public final class CheckRunner {
  private final ParallelRunner parallel;
  private final Duration factTimeout;
  private final Duration probeTimeout;

  /**
   * @param parallel runs per-node work in parallel (FanOut, an executor, or sequential in tests)
   * @param factTimeout per node, for the fact script
   * @param probeTimeout per call, for the proof steps and the head's SSH probe
   */
  public CheckRunner(ParallelRunner parallel, Duration factTimeout, Duration probeTimeout) {
    this.parallel = parallel;
    this.factTimeout = factTimeout;
    this.probeTimeout = probeTimeout;
  }

  public CheckReport run(CheckRequest req, CheckProgress progress) {
    long start = System.nanoTime();
    List<String> nodes = new ArrayList<>();
    if (!req.hostfile().names().contains(req.head())) {
      nodes.add(req.head());
    }
    nodes.addAll(req.hostfile().names());
    Map<String, Host> hosts = new LinkedHashMap<>();
    for (Host h : req.hostfile().hosts()) {
      hosts.put(h.name(), h);
    }

    // 0. The head's SSH probe needs neither facts nor proof: it runs beside them, on its own
    // thread (it is one command on the head that itself fans out), from the start.
    AtomicReference<Map<String, NodeToNodeSsh.Outcome>> ssh = new AtomicReference<>();
    AtomicReference<Duration> sshTime = new AtomicReference<>(Duration.ZERO);
    List<String> sshTargets = nodes.stream().filter(n -> !n.equals(req.head())).toList();
    Thread sshProbe = null;
    if (req.selection().includes(CheckId.SSH_FROM_HEAD)
        && req.shells().containsKey(req.head())
        && !req.connectFailures().containsKey(req.head())) {
      sshProbe =
          new Thread(
              () -> {
                long t = System.nanoTime();
                try {
                  ssh.set(
                      NodeToNodeSsh.run(req.shells().get(req.head()), sshTargets, probeTimeout));
                } catch (RuntimeException e) {
                  ssh.set(null);
                }
                sshTime.set(since(t));
              },
              "clusterrun-ssh-from-head");
      sshProbe.setDaemon(true);
      sshProbe.start();
    }

    // 1. Facts, one round trip per node.
    String script = FactScript.render(req.expected().sysconfDir(), req.job().containerNames());
    Set<String> pending = new LinkedHashSet<>(nodes);
    progress.phase("facts", Set.copyOf(nodes));
    Object lock = new Object();
    Map<String, Facts> gathered =
        parallel.map(
            nodes,
            n -> {
              Facts f = gather(req, n, script);
              synchronized (lock) {
                pending.remove(n);
                progress.nodeAnswered(n, f, Set.copyOf(pending));
              }
              return f;
            },
            (n, e) -> Facts.unanswered(n, "internal error: " + e, Duration.ZERO));
    Map<String, Facts> facts = new LinkedHashMap<>();
    for (String n : nodes) {
      facts.put(n, gathered.get(n));
    }
    Duration factsTime = since(start);

    // 2. The shared-path proof needs every node's data path from the facts.
    Facts headFacts = facts.get(req.head());
    boolean headOk =
        headFacts != null && headFacts.answered() && req.shells().containsKey(req.head());
    SharedPathProof.Result proof = null;
    Duration proofTime = Duration.ZERO;
    if (headOk && nodes.size() > 1 && req.selection().includes(CheckId.DATA_PATH_SHARED)) {
      long t = System.nanoTime();
      Map<String, String> dataPaths = new LinkedHashMap<>();
      for (String n : nodes) {
        Facts f = facts.get(n);
        if (f.answered() && req.shells().containsKey(n)) {
          dataPaths.put(n, f.dataPath());
        }
      }
      progress.phase("data-path-shared", dataPaths.keySet());
      try {
        proof =
            new SharedPathProof(parallel, probeTimeout).prove(req.head(), req.shells(), dataPaths);
      } catch (RuntimeException e) {
        proof = null;
      }
      proofTime = since(t);
    }
    if (sshProbe != null) {
      // Said even when the probe is done already: progress keeps one phase order.
      progress.phase("ssh-from-head", Set.copyOf(sshTargets));
      try {
        sshProbe.join();
      } catch (InterruptedException e) {
        sshProbe.interrupt();
        Thread.currentThread().interrupt();
      }
    }
    // As before the probe ran early: without the head's own facts there is no SSH verdict.
    Map<String, NodeToNodeSsh.Outcome> sshOutcomes = headOk ? ssh.get() : null;

    // 3. The checks themselves are pure.
    CheckInput in =
        new CheckInput(
            nodes, req.head(), facts, hosts, proof, sshOutcomes, req.job(), req.expected());
    List<CheckResult> results = Checks.evaluate(in, req.selection());
    List<CheckId> checks =
        Arrays.stream(CheckId.values()).filter(req.selection()::includes).toList();
    return new CheckReport(
        nodes,
        req.head(),
        checks,
        results,
        facts,
        new CheckReport.Timings(since(start), factsTime, proofTime, sshTime.get()),
        proof == null ? null : proof.cleanupProblem());
  }

  private Facts gather(CheckRequest req, String node, String script) {
    String failure = req.connectFailures().get(node);
    if (failure != null) {
      return Facts.unanswered(node, failure, Duration.ZERO);
    }
    NodeShell shell = req.shells().get(node);
    if (shell == null) {
      return Facts.unanswered(node, "no connection", Duration.ZERO);
    }
    return FactParser.parse(node, shell.run(script, factTimeout));
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
