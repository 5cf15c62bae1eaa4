package dev.clusterrun.core.launch.run;

import dev.clusterrun.core.launch.cleanup.Lifeline;
import java.io.IOException;

/**
 * How a run's processes start once its container is ready, and what must come just before them: the
 * seam where launchers differ. {@link JobRunner} does what every run needs around it (the
 * container, the run directory, the search for leftovers on every node, {@code summary.json}).
 * Today's launchers are {@code mpirun.MpirunLauncher} (the daemon found in the container, the
 * canary, then {@code enroot start … mpirun …} on the head) and {@code pernode.PerNodeLauncher}.
 */
public interface Launcher {
  /**
   * Starts the job of {@code run} and waits for it. May settle the plan ({@link RunContext#plan})
   * first, and must write the run files ({@link RunContext#writeRunFiles}) before any process
   * starts.
   */
  Ending launch(RunContext run) throws IOException, InterruptedException;

  /**
   * Ctrl-C, SIGTERM or SIGHUP: stop what runs; {@link #launch} then returns {@link
   * RunEnd#INTERRUPTED}.
   */
  void interrupt();

  /**
   * Whether every node needs a {@link Lifeline} of its own (each node's process started over its
   * own SSH session), or the head's alone is enough (mpirun's daemons end with mpirun).
   */
  default boolean tiesEveryNode() {
    return false;
  }

  /**
   * A node stopped answering ({@code --node-timeout}): stop what runs without waiting long for an
   * orderly end, which the lost node can never confirm. {@link JobRunner} reports the run as {@link
   * RunEnd#NODE_LOST}.
   */
  default void nodeLost(String node) {
    interrupt();
  }
}
