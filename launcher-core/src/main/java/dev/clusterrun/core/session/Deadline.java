package dev.clusterrun.core.session;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A wall-clock limit's watch ({@code --time}): once {@code limit} has passed since {@code start},
 * {@code onPass} runs, once, on a daemon thread of its own; {@link #close} ends the watch first.
 */
public final class Deadline implements AutoCloseable {
  private final Thread thread;

  private Deadline(Thread thread) {
    this.thread = thread;
  }

  /**
   * Watches {@code limit} from {@code startNanos} ({@link System#nanoTime}); a zero limit watches
   * nothing.
   */
  public static Deadline after(Duration limit, long startNanos, Runnable onPass) {
    if (limit == null || limit.isZero()) {
      return new Deadline(null);
    }
    long end = startNanos + limit.toNanos();
    Thread t =
        new Thread(
            () -> {
              long left;
              while ((left = end - System.nanoTime()) > 0) {
                try {
                  TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                  return;
                }
              }
              onPass.run();
            },
            "clusterrun-time-limit");
    t.setDaemon(true);
    t.start();
    return new Deadline(t);
  }

  /** Ends the watch; {@code onPass} no longer runs unless it has begun. */
  @Override
  public void close() {
    if (thread != null) {
      thread.interrupt();
    }
  }
}
