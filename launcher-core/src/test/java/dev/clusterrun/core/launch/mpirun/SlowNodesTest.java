package dev.clusterrun.core.launch.mpirun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.launch.proof.ProofGate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The nodes whose daemons keep the others waiting are named, as a silent node is. */
class SlowNodesTest {
  private static DaemonProof.Tally tally(int nodes) {
    Map<String, DaemonProof.Node> n = new LinkedHashMap<>();
    n.put("node1", new DaemonProof.Node("h1", "mnt:[1]", false));
    for (int i = 2; i <= nodes; i++) {
      n.put("node" + i, new DaemonProof.Node("h" + i, "mnt:[" + i + "]", true));
    }
    return new DaemonProof.Tally(n, "RUN");
  }

  @Test
  void theNodesNotYetProvenAreNamedWithHowManyDidAndNothingOnceAllDid() {
    DaemonProof.Tally t = tally(3);
    ProofGate gate = new ProofGate(t, () -> {});
    long t0 = System.nanoTime() - 12_000_000_000L;
    assertThat(SlowNodes.note(gate, t0))
        .startsWith("slow: node2, node3: their daemons have not proved themselves after 12 s:")
        .contains("enroot start is slow there (its hooks?)")
        .contains("waits up to 120 s");
    t.add(new DaemonProof.Line("RUN", "h2", "mnt:[9]", null, false));
    assertThat(SlowNodes.note(gate, t0))
        .startsWith("slow: node3: its daemon has not proved itself")
        .contains("(1 node's did)");
    t.add(new DaemonProof.Line("RUN", "h3", "mnt:[8]", null, false));
    assertThat(SlowNodes.note(gate, t0)).isNull();
  }

  @Test
  void manyAreCountedNotListed() {
    DaemonProof.Tally t = tally(20);
    assertThat(SlowNodes.note(new ProofGate(t, () -> {}), System.nanoTime()))
        .startsWith("slow: node2, node3, node4, node5, node6, node7, node8, node9 and 11 more:");
  }
}
