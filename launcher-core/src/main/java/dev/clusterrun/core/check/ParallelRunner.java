package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs one task per node and returns when all are done: the seam where the remote layer's {@code
 * FanOut} plugs in. Tasks never throw (a task's failure is part of its result).
 */
@FunctionalInterface
public interface ParallelRunner {
  void runAll(List<Runnable> tasks);

  /** One after the other, on the calling thread. */
  static ParallelRunner sequential() {
    return tasks -> tasks.forEach(Runnable::run);
  }

  /** On the given executor; waits for every task. */
  static ParallelRunner on(ExecutorService executor) {
    return tasks -> {
      List<Future<?>> futures = new ArrayList<>();
      for (Runnable t : tasks) {
        futures.add(executor.submit(t));
      }
      boolean interrupted = false;
      for (Future<?> f : futures) {
        while (true) {
          try {
            f.get();
            break;
          } catch (InterruptedException e) {
            interrupted = true;
          } catch (java.util.concurrent.ExecutionException e) {
            break;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** Applies {@code task} to every node in parallel; a task that throws yields {@code onError}. */
  default <T> Map<String, T> map(
      Collection<String> nodes,
      Function<String, T> task,
      java.util.function.BiFunction<String, RuntimeException, T> onError) {
    Map<String, T> out = new ConcurrentHashMap<>();
    List<Runnable> tasks = new ArrayList<>();
    for (String n : nodes) {
      tasks.add(
          () -> {
            T v;
            try {
              v = task.apply(n);
            } catch (RuntimeException e) {
              v = onError.apply(n, e);
            }
            out.put(n, v);
          });
    }
    runAll(tasks);
    return out;
  }
}
