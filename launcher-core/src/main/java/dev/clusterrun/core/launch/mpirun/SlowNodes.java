package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.launch.proof.ProofGate;
import java.time.Duration;
import java.util.List;

/**
 * The nodes whose daemons keep the others waiting, named every {@link #EVERY} while the launch
 * waits for proof, as {@code --node-timeout} names a silent node: a node whose hooks take 40 s is
 * named while the others wait for it.
 */
final class SlowNodes {
  /** How often the nodes whose daemons have not proved themselves yet are named. */
  static final Duration EVERY = Duration.ofSeconds(10);

  private SlowNodes() {}

  /**
   * The nodes whose daemons have not proved themselves yet, named while the others wait (as {@code
   * --node-timeout} names a silent node); null when none is missing or the gate is open.
   */
  static String note(ProofGate gate, long t0) {
    if (gate.opened() || gate.tally().failed()) {
      return null;
    }
    List<String> missing = gate.tally().missing();
    if (missing.isEmpty()) {
      return null;
    }
    int proved = gate.tally().proofs().size();
    long secs = Duration.ofNanos(System.nanoTime() - t0).toSeconds();
    List<String> shown = missing.size() > 8 ? missing.subList(0, 8) : missing;
    return "slow: "
        + String.join(", ", shown)
        + (missing.size() > shown.size() ? " and " + (missing.size() - shown.size()) + " more" : "")
        + (missing.size() == 1
            ? ": its daemon has not proved itself"
            : ": their daemons have not proved themselves")
        + " after "
        + secs
        + " s"
        + (proved > 0 ? " (" + proved + (proved == 1 ? " node's" : " nodes'") + " did)" : "")
        + ": enroot start is slow there (its hooks?); the job waits up to "
        + ProofGate.DEADLINE.toSeconds()
        + " s for them";
  }
}
