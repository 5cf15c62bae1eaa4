package dev.clusterrun.core.setup;

import java.util.Map;
import java.util.Optional;

/**
 * Whether the data path setup is about to configure is proven shared between the nodes. The proof
 * itself (a token written on one node and read back on every other) is made by the checks; setup
 * only refuses to write a drop-in on a node for which it is not proven, so a job never starts with
 * containers that exist on one node only.
 */
@FunctionalInterface
public interface DataPathProof {
  /** Empty when the data path is proven shared for {@code node}; otherwise why it is not. */
  Optional<String> problem(String node);

  /**
   * No proof asked for: the caller deliberately takes the data path as shared (a flag that skips
   * the check, or a single node).
   */
  static DataPathProof assumed() {
    return node -> Optional.empty();
  }

  /** The proof's result: nodes in {@code problems} are not proven shared, for the reason given. */
  static DataPathProof of(Map<String, String> problems) {
    Map<String, String> copy = Map.copyOf(problems);
    return node -> Optional.ofNullable(copy.get(node));
  }
}
