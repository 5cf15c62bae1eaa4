package dev.clusterrun.core.session;

import dev.clusterrun.core.remote.Deadlines;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Watches every node of a session while a job runs: every few seconds each node other than the head
 * is asked a trivial question ({@code true}) over its open SSH connection, and a node that has not
 * answered for the timeout is reported lost, once. A node lost without a reset (a cut link, a power
 * loss) answers nothing and sends nothing back, so silence is all there is to go by. One question
 * at a time per node, on the session's pool; the beat runs on the session's timer.
 */
public final class NodeWatch implements AutoCloseable {
  /** A node that stopped answering: its name and how long it had been silent. */
  public record Lost(String node, Duration silent) {}

  private final Map<String, NodeShell> shells;
  private final FanOut fanOut;
  private final Duration timeout;
  private final Duration period;
  private final Consumer<Lost> onLost;
  private final LongSupplier clock;
  private final Map<String, Long> lastAnswer = new ConcurrentHashMap<>();
  private final Set<String> asking = ConcurrentHashMap.newKeySet();
  private final List<Lost> lost = new ArrayList<>();
  private volatile boolean closed;
  private Deadlines.Deadline next;

  private NodeWatch(
      Map<String, NodeShell> shells,
      FanOut fanOut,
      Duration timeout,
      Consumer<Lost> onLost,
      LongSupplier clock) {
    this.shells = shells;
    this.fanOut = fanOut;
    this.timeout = timeout;
    this.period = period(timeout);
    this.onLost = onLost;
    this.clock = clock;
    long now = clock.getAsLong();
    shells.keySet().forEach(n -> lastAnswer.put(n, now));
  }

  /** How often each node is asked: a fifth of the timeout, between 0.5 and 5 s. */
  static Duration period(Duration timeout) {
    long ms = Math.max(500, Math.min(5000, timeout.toMillis() / 5));
    return Duration.ofMillis(ms);
  }

  /**
   * Starts watching every node of {@code session} but the head (which runs clusterrun itself).
   *
   * @param onLost told once, on the timer's thread, of the first node found lost; it must return
   *     quickly (stop the job, do not wait for it)
   */
  public static NodeWatch start(Session session, Duration timeout, Consumer<Lost> onLost) {
    Map<String, NodeShell> remote = new LinkedHashMap<>(session.shells());
    remote.remove(session.head());
    NodeWatch w = new NodeWatch(remote, session.fanOut(), timeout, onLost, System::nanoTime);
    w.schedule();
    return w;
  }

  private synchronized void schedule() {
    if (!closed && !shells.isEmpty()) {
      next = fanOut.after(period, this::beat);
    }
  }

  /**
   * One beat: judge the silence of every node, then ask those not being asked already; the next
   * beat is scheduled whatever happens in this one, until a node is lost or the watch closed.
   */
  void beat() {
    try {
      judgeThenAsk();
    } catch (RuntimeException e) {
      // A beat that fails (a pool shutting down) must not end the watch while it is open.
    } finally {
      try {
        schedule();
      } catch (RejectedExecutionException e) {
        // the session is closing
      }
    }
  }

  private void judgeThenAsk() {
    if (closed) {
      return;
    }
    long now = clock.getAsLong();
    List<Lost> found = new ArrayList<>();
    for (String n : shells.keySet()) {
      long silent = now - lastAnswer.get(n);
      if (silent >= timeout.toNanos()) {
        found.add(new Lost(n, Duration.ofNanos(silent)));
      }
    }
    if (!found.isEmpty()) {
      boolean first;
      synchronized (this) {
        first = lost.isEmpty();
        lost.addAll(found);
        closed = true;
      }
      if (first) {
        onLost.accept(found.get(0));
      }
      return;
    }
    for (String n : shells.keySet()) {
      if (asking.add(n)) {
        try {
          fanOut.beside(() -> ask(n));
        } catch (RuntimeException e) {
          asking.remove(n);
          throw e;
        }
      }
    }
  }

  private Boolean ask(String node) {
    try {
      ExecResult r = shells.get(node).run("true", timeout);
      if (r.ok()) {
        lastAnswer.put(node, clock.getAsLong());
      }
      return r.ok();
    } finally {
      asking.remove(node);
    }
  }

  /** The nodes found lost (empty while every node answers), first the one reported. */
  public synchronized List<String> lost() {
    return lost.stream().map(Lost::node).toList();
  }

  /** How long the first lost node had been silent, or null. */
  public synchronized Duration silence() {
    return lost.isEmpty() ? null : lost.get(0).silent();
  }

  /** Stops watching; a question under way finishes on its own. */
  @Override
  public synchronized void close() {
    closed = true;
    if (next != null) {
      next.cancel();
    }
  }
}
