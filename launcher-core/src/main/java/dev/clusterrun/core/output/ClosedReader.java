package dev.clusterrun.core.output;

import dev.clusterrun.core.session.Console;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * clusterrun's own standard output and error, watched for a reader that has gone: {@code | head -1}
 * ending, {@code | grep -m1}, a pager that quits. A write then fails with EPIPE (the JVM ignores
 * SIGPIPE), and a {@link PrintStream} only remembers it ({@link PrintStream#checkError}). Where
 * SIGPIPE would end mpirun, the run is stopped as a signal stops it: the stop given to {@link
 * #alongside}'s interrupts gets {@link #SIGPIPE}, so the job is stopped on every node, cleaned up,
 * and clusterrun exits 141. The guarded streams never throw: after the failure they drop what they
 * are given (the run directory's logs are written apart and keep everything); the other stream goes
 * on (a closed standard output leaves the stop's messages on standard error).
 */
public final class ClosedReader {
  /** SIGPIPE's number on Linux. */
  public static final int SIGPIPE = 13;

  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile IntConsumer stop;

  /** Whether a reader has gone. */
  public boolean closed() {
    return closed.get();
  }

  /**
   * {@code s} guarded: each write is flushed and checked; the first failure stops the run ({@link
   * #alongside}), later writes to it are dropped.
   */
  public PrintStream guard(PrintStream s) {
    return new PrintStream(new Guarded(s), false);
  }

  /**
   * {@code signals} with the gone reader as one more signal: while a handle is open, the gone
   * reader calls its stop with {@link #SIGPIPE} (at once when it went before).
   */
  public Console.Interrupts alongside(Console.Interrupts signals) {
    return s -> {
      Console.Handle h = signals.onInterrupt(s);
      stop = s;
      if (closed.get()) {
        s.accept(SIGPIPE);
      }
      return () -> {
        stop = null;
        h.close();
      };
    };
  }

  private void failed() {
    if (closed.compareAndSet(false, true)) {
      IntConsumer s = stop;
      if (s != null) {
        s.accept(SIGPIPE);
      }
    }
  }

  private final class Guarded extends OutputStream {
    private final PrintStream target;
    private volatile boolean gone;

    Guarded(PrintStream target) {
      this.target = target;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (gone) {
        return;
      }
      target.write(b, off, len);
      flush();
    }

    @Override
    public void flush() {
      // checkError flushes: the bytes are on their way, or the reader is gone.
      if (!gone && target.checkError()) {
        gone = true;
        failed();
      }
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
