package dev.clusterrun.core.setup;

import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The flow of {@code clusterrun setup}: connect, prove the data path shared (the head creates it,
 * every node must see it; a per-user template as enroot expands it for the user running setup),
 * then read every node (and the head) at once and configure them: a node whose data path is not
 * proven shared gets no drop-in. Nodes that see one sysconf dir (the same device and inode:
 * diskless nodes, an NFS root) get it written once, by the first of them; the others are read again
 * after it and report {@code changed} (their files changed) or {@code unchanged}.
 */
public final class SetupFlow {
  static final Duration PROOF_TIMEOUT = Duration.ofSeconds(30);

  private SetupFlow() {}

  public static SetupOutcome run(SetupRequest rq, Progress progress) throws InterruptedException {
    try (Session session = Session.open(rq.hostfile(), rq.ssh(), progress)) {
      SharedPathProof.Verdict proof =
          SharedPathProof.ofPath(session, rq.spec().dataPathTemplate(), PROOF_TIMEOUT);
      NodeSetup setup = new NodeSetup(rq.spec(), proof);
      Map<String, NodeOutcome> done =
          rq.dryRun()
              ? session.onEveryShell(s -> guardedOutcome(s.node(), () -> setup.dryRun(s)))
              : configure(session, rq, setup);
      List<NodeOutcome> outcomes = new ArrayList<>();
      for (String n : rq.hostfile().names()) {
        if (done.containsKey(n)) {
          outcomes.add(done.get(n));
        } else if (session.unreachable().containsKey(n)) {
          outcomes.add(
              NodeOutcome.failed(n, "unreachable: " + session.unreachable().get(n), List.of()));
        }
      }
      if (!rq.hostfile().names().contains(session.head()) && done.containsKey(session.head())) {
        outcomes.add(0, done.get(session.head()));
      }
      return new SetupOutcome(new SetupReport(rq.dryRun(), outcomes));
    }
  }

  /**
   * Every node read, then configured: at once, but a node that shares its sysconf dir with an
   * earlier one only after the others, read again.
   */
  private static Map<String, NodeOutcome> configure(
      Session session, SetupRequest rq, NodeSetup setup) throws InterruptedException {
    Map<String, NodeSetup.Read> reads = session.onEveryShell(guarded(setup::read));
    List<String> order = new ArrayList<>(rq.hostfile().names());
    order.add(0, session.head());
    Map<String, String> leaderOf = sharing(order, reads);
    Map<String, NodeOutcome> done =
        new HashMap<>(
            session.onEveryShellExcept(
                leaderOf.keySet(),
                s -> guardedOutcome(s.node(), () -> setup.run(s, reads.get(s.node()), false))));
    if (!leaderOf.isEmpty()) {
      List<String> others = new ArrayList<>(session.shells().keySet());
      others.removeAll(leaderOf.keySet());
      done.putAll(
          session.onEveryShellExcept(
              others,
              s ->
                  guardedOutcome(s.node(), () -> follow(setup, s, reads.get(s.node()), leaderOf))));
    }
    return done;
  }

  /**
   * Each node that shares its sysconf dir with an earlier node of {@code order} (the same {@code
   * device:inode}), to that first node: the one that writes it.
   */
  static Map<String, String> sharing(List<String> order, Map<String, NodeSetup.Read> reads) {
    Map<String, String> first = new HashMap<>();
    Map<String, String> leaderOf = new LinkedHashMap<>();
    for (String n : order) {
      NodeSetup.Read r = reads.get(n);
      if (r == null || r.sysconfId() == null || leaderOf.containsKey(n)) {
        continue;
      }
      String leader = first.putIfAbsent(r.sysconfId(), n);
      if (leader != null && !leader.equals(n)) {
        leaderOf.put(n, leader);
      }
    }
    return leaderOf;
  }

  /**
   * A node whose sysconf dir its leader wrote: read again and set up as any node (nothing left to
   * write when the leader succeeded); {@code changed} when its files were not as wanted before.
   */
  private static NodeOutcome follow(
      NodeSetup setup, NodeShell s, NodeSetup.Read before, Map<String, String> leaderOf) {
    NodeOutcome now = setup.apply(s);
    List<FileChange> planned = setup.plannedChanges(before);
    if (now.status() != NodeOutcome.Status.UNCHANGED || planned.isEmpty()) {
      return now;
    }
    String by = "written by " + leaderOf.get(s.node()) + ", which shares this directory";
    return NodeOutcome.changed(
        s.node(),
        planned.stream()
            .map(
                c ->
                    new FileChange(
                        c.label(),
                        c.path(),
                        c.action(),
                        c.detail() == null || c.detail().isEmpty() ? by : c.detail() + "; " + by,
                        c.diff(),
                        null))
            .toList());
  }

  private static Function<NodeShell, NodeSetup.Read> guarded(
      Function<NodeShell, NodeSetup.Read> read) {
    return s -> {
      try {
        return read.apply(s);
      } catch (RuntimeException e) {
        return new NodeSetup.Read(
            s.node(), null, NodeOutcome.failed(s.node(), "internal error: " + e, List.of()));
      }
    };
  }

  private static NodeOutcome guardedOutcome(String node, Supplier<NodeOutcome> task) {
    try {
      return task.get();
    } catch (RuntimeException e) {
      return NodeOutcome.failed(node, "internal error: " + e, List.of());
    }
  }
}
