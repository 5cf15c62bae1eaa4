package dev.clusterrun.core.output;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A reader that takes nothing for its first {@code pause} (a terminal scrolled back, a CI log that
 * stalls), then everything: it counts what it is given and, when asked, keeps it.
 */
public final class SlowReader extends OutputStream {
  private final ByteArrayOutputStream kept;
  private final long until;
  private long count;

  public SlowReader(Duration pause, boolean keep) {
    until = System.nanoTime() + pause.toNanos();
    kept = keep ? new ByteArrayOutputStream() : null;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    long wait = until - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
    }
    count += len;
    if (kept != null) {
      kept.write(b, off, len);
    }
  }

  public synchronized long count() {
    return count;
  }

  /** What it was given (empty unless made to keep it). */
  public synchronized byte[] bytes() {
    return kept == null ? new byte[0] : kept.toByteArray();
  }
}
