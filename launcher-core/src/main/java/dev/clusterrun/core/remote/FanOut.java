package dev.clusterrun.core.remote;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs one function per node with bounded parallelism. Results come back in hostfile order; a slow
 * node never holds back the others (their results are ready, and the listener hears of them, as
 * they finish); interrupting the caller cancels what is still running or queued.
 *
 * <p>Tasks should return failures as data. A task that throws does not stop the others; its
 * exception is rethrown by {@link #map} once every node has finished.
 */
public final class FanOut {
  public static final int DEFAULT_PARALLELISM = 64;

  /** Progress, called from worker threads (one call at a time). */
  public interface Listener {
    default void started(String node) {}

    /**
     * @param pending the nodes not finished yet, in hostfile order
     */
    default void finished(String node, List<String> pending) {}

    Listener NONE = new Listener() {};
  }

  private final int parallelism;

  public FanOut() {
    this(DEFAULT_PARALLELISM);
  }

  /**
   * @param parallelism how many nodes are worked on at once (at least 1)
   */
  public FanOut(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = parallelism;
  }

  public int parallelism() {
    return parallelism;
  }

  public <R> List<R> map(List<String> nodes, Function<String, R> task) throws InterruptedException {
    return map(nodes, task, Listener.NONE);
  }

  /**
   * Applies {@code task} to every node, at most {@link #parallelism()} at once.
   *
   * @return one result per node, in the order of {@code nodes}
   * @throws InterruptedException when the calling thread is interrupted; running tasks are
   *     interrupted and queued ones never start
   */
  public <R> List<R> map(List<String> nodes, Function<String, R> task, Listener listener)
      throws InterruptedException {
    int n = nodes.size();
    if (n == 0) {
      return List.of();
    }
    Map<Integer, String> pending = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      pending.put(i, nodes.get(i));
    }
    Object lock = new Object();
    AtomicInteger threadNo = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(parallelism, n),
            r -> {
              Thread t = new Thread(r, "clusterrun-fanout-" + threadNo.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
    List<R> results = new ArrayList<>(Collections.nCopies(n, null));
    RuntimeException failure = null;
    List<Future<Integer>> futures = new ArrayList<>(n);
    try {
      for (int i = 0; i < n; i++) {
        final int idx = i;
        futures.add(
            done.submit(
                () -> {
                  String node = nodes.get(idx);
                  synchronized (lock) {
                    listener.started(node);
                  }
                  try {
                    results.set(idx, task.apply(node));
                  } finally {
                    synchronized (lock) {
                      pending.remove(idx);
                      listener.finished(node, List.copyOf(pending.values()));
                    }
                  }
                  return idx;
                }));
      }
      for (int k = 0; k < n; k++) {
        Future<Integer> f = done.take();
        try {
          f.get();
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          RuntimeException r =
              c instanceof RuntimeException re ? re : new IllegalStateException(c.toString(), c);
          if (c instanceof Error err) {
            throw err;
          }
          if (failure == null) {
            failure = r;
          } else {
            failure.addSuppressed(r);
          }
        }
      }
    } catch (InterruptedException e) {
      for (Future<Integer> f : futures) {
        f.cancel(true);
      }
      pool.shutdownNow();
      throw e;
    } finally {
      pool.shutdownNow();
    }
    if (failure != null) {
      throw failure;
    }
    synchronized (lock) {
      return Collections.unmodifiableList(new ArrayList<>(results));
    }
  }
}
