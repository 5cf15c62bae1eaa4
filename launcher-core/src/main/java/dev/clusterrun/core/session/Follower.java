package dev.clusterrun.core.session;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Passes on a file that a process is still writing, as {@code tail -f} does, from its first byte:
 * every byte once, in order, in chunks of up to {@link #CHUNK} bytes. {@link #finish} is called
 * once the writer has ended: the follower reads to the end, passes it on, and stops.
 */
public final class Follower {
  /** The most read and passed on at once. */
  static final int CHUNK = 256 * 1024;

  /** The longest wait for more when the file has not grown for a while. */
  static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

  private final Path file;
  private final OutputStream to;
  private final Thread thread;
  private volatile boolean ending;
  private volatile IOException failure;

  private Follower(Path file, OutputStream to, String name) {
    this.file = file;
    this.to = to;
    this.thread = new Thread(this::follow, "clusterrun-follow-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts following {@code file} into {@code to}. */
  public static Follower start(Path file, OutputStream to, String name) {
    Follower f = new Follower(file, to, name);
    f.thread.start();
    return f;
  }

  private void follow() {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.allocate(CHUNK);
      long idle = 0;
      while (true) {
        // Read after seeing the end announced: a read that then finds nothing has found the end.
        boolean last = ending;
        int n = ch.read(buf);
        if (n > 0) {
          to.write(buf.array(), 0, n);
          buf.clear();
          idle = 0;
          continue;
        }
        if (last) {
          break;
        }
        idle = Math.min(MAX_IDLE_NANOS, idle == 0 ? 1_000_000 : idle * 2);
        LockSupport.parkNanos(idle);
      }
      to.flush();
    } catch (IOException e) {
      failure = e;
    }
  }

  /**
   * The writer has ended: waits until every byte is passed on, at most {@code limit} (null: no
   * limit).
   *
   * @return whether the follower got to the end in time
   * @throws IOException when the file could not be read or its bytes not passed on
   */
  public boolean finish(Duration limit) throws IOException, InterruptedException {
    ending = true;
    LockSupport.unpark(thread);
    if (limit == null) {
      thread.join();
    } else {
      thread.join(Math.max(1, limit.toMillis()));
    }
    if (failure != null) {
      throw failure;
    }
    return !thread.isAlive();
  }

  /** The followers of one process's two files. */
  public record Pair(Follower out, Follower err) {
    /**
     * Both to their end ({@link Follower#finish}), at most {@code limit} each (null: no limit).
     *
     * @return whether both got to the end in time
     */
    public boolean finish(Duration limit) throws IOException, InterruptedException {
      boolean o;
      try {
        o = out.finish(limit);
      } finally {
        err.finish(limit);
      }
      return o && !err.thread.isAlive();
    }
  }
}
