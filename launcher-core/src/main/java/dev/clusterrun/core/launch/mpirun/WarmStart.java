package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.enroot.AgentJoin;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.remote.NodeShell;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every other node's container begun while the checks still run, for the run's daemon there to join
 * ({@link AgentJoin}): the node's {@code enroot start} (its mounts and hooks) then overlaps the
 * checks instead of following mpirun's daemon, and every node starts at once instead of one level
 * of Open MPI's tree after the other. Begun with the plan the head's own early start began with
 * ({@link EarlyStart}), over each node's connection, as a held command whose input only clusterrun
 * holds: closing it (or clusterrun's end, however it ends) ends the container. A node whose
 * container did not begin, or began with other words, starts it as before.
 */
final class WarmStart implements AutoCloseable {
  /** No container begun anywhere. */
  static final WarmStart NONE = new WarmStart(List.of());

  private final List<OutputStream> inputs;

  private WarmStart(List<OutputStream> inputs) {
    this.inputs = inputs;
  }

  /**
   * Begins {@code plan}'s agent container on every node but {@code head} whose shell can hold a
   * command, when its daemons go through the launch agent; else {@link #NONE}. Never waits for a
   * node to answer.
   */
  static WarmStart begin(Plan plan, Map<String, NodeShell> shells, String head) {
    if (plan.held() == null || shells.size() < 2) {
      return NONE;
    }
    String script = AgentJoin.holdScript(plan.runId(), plan.held());
    List<OutputStream> in = new ArrayList<>();
    shells.forEach(
        (node, shell) -> {
          if (!node.equals(head)) {
            OutputStream o = shell.hold(script);
            if (o != null) {
              in.add(o);
            }
          }
        });
    return new WarmStart(List.copyOf(in));
  }

  /** Ends every container still held (its input ends); never waits. */
  @Override
  public void close() {
    for (OutputStream o : inputs) {
      try {
        o.close();
      } catch (IOException e) {
        // ended already
      }
    }
  }
}
