package dev.clusterrun.core.setup;

import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flow of {@code clusterrun setup}: connect, prove the data path shared (the head creates it,
 * every node must see it; a per-user template as enroot expands it for the user running setup),
 * then configure every node (and the head) at once; a node whose data path is not proven shared
 * gets no drop-in.
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
          session.onEveryShell(
              s -> {
                try {
                  return rq.dryRun() ? setup.dryRun(s) : setup.apply(s);
                } catch (RuntimeException e) {
                  return NodeOutcome.failed(s.node(), "internal error: " + e, List.of());
                }
              });
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
}
