package dev.clusterrun.core.check;

import java.util.Set;

/**
 * What a {@link CheckRunner} tells while it works, so the CLI can show which nodes are still
 * pending. Called from worker threads, one call at a time.
 */
public interface CheckProgress {
  CheckProgress NONE = new CheckProgress() {};

  /** A phase starts: {@code facts}, {@code data-path-shared}, {@code ssh-from-head}. */
  default void phase(String phase, Set<String> nodes) {}

  /** A node answered (or failed to); {@code pending} are the nodes still awaited in this phase. */
  default void nodeAnswered(String node, Facts facts, Set<String> pending) {}
}
