package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.enroot.AgentJoin;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.remote.NodeShell;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
  /** The head's held start, as {@link #watch} looks at it. */
  interface Start {
    /** Whether it is up (its hooks done). */
    boolean up();

    /** Whether its process still runs (the held shell, or the job it became). */
    boolean alive();

    /** How long it has run, in seconds. */
    double seconds();
  }

  /** No container begun anywhere. */
  static final WarmStart NONE = new WarmStart(List.of());

  /**
   * How long the head's own start must have run, not yet up, before the other nodes' begin: a start
   * that long is the hooks' (a GPU node's {@code nvidia-container-cli}), which then overlap the
   * checks on every node. A quicker start is left to the agent: beginning it early costs each node
   * a held session and an {@code enroot exec} (about 60 ms of CPU with the stand-in), which only
   * pays when the start itself is slow (docs/scale.md has the figures).
   */
  static final Duration SLOW_START = Duration.ofMillis(750);

  /** How often the head's start is looked at while it runs. */
  static final Duration LOOK = Duration.ofMillis(20);

  /**
   * Whether this machine's processors are all busy (the load average of the last minute at least
   * their number): a start then looks slow for want of a processor, not for its hooks, and
   * beginning more starts beside the checks only takes the checks' time, when the other nodes share
   * these processors ({@link EarlyStart#sharesProcessors}: the local test cluster).
   */
  static boolean saturated() {
    try {
      String first = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
      return Double.parseDouble(first) >= Runtime.getRuntime().availableProcessors();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Watches the head's held start {@code e} until it is up (after the job went, too: the job's
   * command runs in the same process), and runs {@code begin} once when the other nodes' containers
   * are worth beginning: at once when the last run's figure ({@code before}, null for none) is
   * {@link #SLOW_START} or more; else when this start has run that long, up or not. Never on a
   * {@code saturated} machine. Returns how long the start took to be up (at most a look late, or an
   * upper bound when it was up at the first look), or NaN when it ended first or took more than two
   * minutes.
   */
  static double watch(Double before, boolean saturated, Start e, Runnable begin)
      throws InterruptedException {
    double slow = SLOW_START.toNanos() / 1e9;
    boolean decided = saturated || before != null;
    if (!saturated && before != null && before >= slow) {
      begin.run();
    }
    while (true) {
      double s = e.seconds();
      boolean up = e.up();
      if (!decided && s >= slow) {
        decided = true;
        begin.run();
      }
      if (up) {
        return s;
      }
      if (!e.alive() || s > 120) {
        return Double.NaN;
      }
      Thread.sleep(LOOK.toMillis());
    }
  }

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
