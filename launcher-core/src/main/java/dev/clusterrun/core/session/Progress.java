package dev.clusterrun.core.session;

import java.nio.file.Path;
import java.util.List;

/**
 * What a command tells people while it works: which round over the nodes is under way, which nodes
 * are still pending, and one-line notes. The one progress interface of clusterrun; the CLI renders
 * it on stderr. Calls come from worker threads, one at a time within a round.
 */
public interface Progress {
  Progress NONE = new Progress() {};

  /** A round over {@code nodes} begins: {@code connecting}, {@code facts}, … */
  default void phase(String phase, List<String> nodes) {}

  /** A node's task in a round started. */
  default void started(String phase, String node) {}

  /**
   * A node's task in a round finished.
   *
   * @param pending the nodes of the round not finished yet, in hostfile order
   */
  default void finished(String phase, String node, List<String> pending) {}

  /** The round is over (whatever was said about pending nodes can go). */
  default void done(String phase) {}

  /** One line for people, e.g. {@code container pytorch: reused container pytorch}. */
  default void note(String line) {}

  /**
   * A run has begun, its checks passed: its id is final and its run directory made ({@code run
   * --detach} lets its foreground go here).
   */
  default void runStarted(String runId, Path runDir) {}
}
