package dev.clusterrun.core.session;

import dev.clusterrun.core.remote.Deadlines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one thread pool of clusterrun, owned by a {@link Session} for a whole command: runs one task
 * per node with bounded parallelism ({@code --fanout}). Results come back in hostfile order; a slow
 * node never holds back the others (their results are ready, and progress hears of them, as they
 * finish); interrupting the caller cancels what is still running or queued. It also keeps the one
 * timer thread of a command ({@link Deadlines}: SSH connect deadlines).
 *
 * <p>Tasks should return failures as data. A task that throws does not stop the others; its
 * exception is rethrown by {@link #map} once every node has finished. A task that itself fans out
 * runs that inner round on its own thread, one node after the other, so a full pool never waits on
 * itself.
 */
public final class FanOut implements Deadlines, AutoCloseable {
  public static final int DEFAULT_PARALLELISM = 64;

  private final int parallelism;
  private final ThreadPoolExecutor pool;
  private final ThreadLocal<Boolean> onWorker = ThreadLocal.withInitial(() -> Boolean.FALSE);
  private ScheduledThreadPoolExecutor timer;

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
    AtomicInteger threadNo = new AtomicInteger();
    ThreadFactory workers =
        r -> {
          Thread t =
              new Thread(
                  () -> {
                    onWorker.set(Boolean.TRUE);
                    r.run();
                  },
                  "clusterrun-fanout-" + threadNo.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    this.pool =
        new ThreadPoolExecutor(
            parallelism, parallelism, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), workers);
    pool.allowCoreThreadTimeOut(true);
  }

  public int parallelism() {
    return parallelism;
  }

  public <R> List<R> map(List<String> nodes, Function<String, R> task) throws InterruptedException {
    return map(null, nodes, task, Progress.NONE);
  }

  /** {@link #map}, keyed by node in the order of {@code nodes}. */
  public <R> Map<String, R> byNode(List<String> nodes, Function<String, R> task)
      throws InterruptedException {
    List<R> results = map(nodes, task);
    Map<String, R> out = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      out.put(nodes.get(i), results.get(i));
    }
    return out;
  }

  /**
   * Applies {@code task} to every node, at most {@link #parallelism()} at once, and tells {@code
   * progress} (when {@code phase} is not null: the round, then each node as it starts and ends).
   *
   * @return one result per node, in the order of {@code nodes}
   * @throws InterruptedException when the calling thread is interrupted; running tasks are
   *     interrupted and queued ones never start
   */
  public <R> List<R> map(
      String phase, List<String> nodes, Function<String, R> task, Progress progress)
      throws InterruptedException {
    int n = nodes.size();
    Progress p = phase == null ? Progress.NONE : progress;
    p.phase(phase, List.copyOf(nodes));
    if (n == 0) {
      return List.of();
    }
    Round<R> round = new Round<>(phase, nodes, task, p);
    if (onWorker.get()) {
      return round.inline();
    }
    return round.on(pool);
  }

  /** One {@link #map} call: its results, its pending nodes and the first failure. */
  private static final class Round<R> {
    final String phase;
    final List<String> nodes;
    final Function<String, R> task;
    final Progress progress;
    final Map<Integer, String> pending = new LinkedHashMap<>();
    final List<R> results;
    final Object lock = new Object();

    Round(String phase, List<String> nodes, Function<String, R> task, Progress progress) {
      this.phase = phase;
      this.nodes = nodes;
      this.task = task;
      this.progress = progress;
      this.results = new ArrayList<>(Collections.nCopies(nodes.size(), null));
      for (int i = 0; i < nodes.size(); i++) {
        pending.put(i, nodes.get(i));
      }
    }

    Integer one(int idx) {
      String node = nodes.get(idx);
      synchronized (lock) {
        progress.started(phase, node);
      }
      try {
        R r = task.apply(node);
        synchronized (lock) {
          results.set(idx, r);
        }
      } finally {
        synchronized (lock) {
          pending.remove(idx);
          progress.finished(phase, node, List.copyOf(pending.values()));
        }
      }
      return idx;
    }

    List<R> inline() {
      for (int i = 0; i < nodes.size(); i++) {
        one(i);
      }
      return snapshot();
    }

    List<R> on(ThreadPoolExecutor pool) throws InterruptedException {
      CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
      List<Future<Integer>> futures = new ArrayList<>(nodes.size());
      RuntimeException failure = null;
      try {
        for (int i = 0; i < nodes.size(); i++) {
          final int idx = i;
          futures.add(done.submit(() -> one(idx)));
        }
        for (int k = 0; k < nodes.size(); k++) {
          failure = collect(done.take(), failure);
        }
      } catch (InterruptedException e) {
        for (Future<Integer> f : futures) {
          f.cancel(true);
        }
        throw e;
      }
      if (failure != null) {
        throw failure;
      }
      return snapshot();
    }

    private static RuntimeException collect(Future<Integer> f, RuntimeException failure)
        throws InterruptedException {
      try {
        f.get();
        return failure;
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof Error err) {
          throw err;
        }
        RuntimeException r =
            c instanceof RuntimeException re ? re : new IllegalStateException(c.toString(), c);
        if (failure == null) {
          return r;
        }
        failure.addSuppressed(r);
        return failure;
      }
    }

    private List<R> snapshot() {
      synchronized (lock) {
        return Collections.unmodifiableList(new ArrayList<>(results));
      }
    }
  }

  /** A task started with {@link #beside}: its result once it is done. */
  public interface Task<T> {
    /**
     * Waits for the task.
     *
     * @throws RuntimeException the task's own, when it threw
     * @throws InterruptedException when the caller is interrupted (the task is interrupted too)
     */
    T join() throws InterruptedException;
  }

  /**
   * Starts one task beside the rounds of the same command (e.g. the head's SSH probe during the
   * checks), on the same pool; a pool of one runs it before the next round's tasks.
   */
  public <T> Task<T> beside(Supplier<T> task) {
    Callable<T> c = task::get;
    Future<T> f = onWorker.get() ? completed(c) : pool.submit(c);
    return () -> {
      try {
        return f.get();
      } catch (InterruptedException e) {
        f.cancel(true);
        throw e;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error err) {
          throw err;
        }
        throw e.getCause() instanceof RuntimeException re
            ? re
            : new IllegalStateException(e.getCause());
      }
    };
  }

  private static <T> Future<T> completed(Callable<T> c) {
    FutureTask<T> t = new FutureTask<>(c);
    t.run();
    return t;
  }

  @Override
  public synchronized Deadline after(Duration delay, Runnable action) {
    if (timer == null) {
      timer =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "clusterrun-deadlines");
                t.setDaemon(true);
                return t;
              });
      timer.setRemoveOnCancelPolicy(true);
    }
    ScheduledFuture<?> f = timer.schedule(action, delay.toMillis(), TimeUnit.MILLISECONDS);
    return () -> f.cancel(false);
  }

  /** Stops the pool and the timer; what still runs is interrupted. */
  @Override
  public synchronized void close() {
    pool.shutdownNow();
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
