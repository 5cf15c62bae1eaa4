package dev.clusterrun.core.session;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.IntConsumer;

/**
 * Where a command speaks: {@link Progress} for people, the job's own output streams, and the hook
 * that turns Ctrl-C, SIGTERM or SIGHUP into an orderly stop while a job runs. The CLI makes one;
 * tests make their own.
 *
 * @param out the job's stdout, passed through unchanged
 * @param err the job's stderr, and enroot's while the container is made
 * @param in clusterrun's own standard input, for the job ({@code --stdin}); read only once the
 *     job's command runs; null: an empty one
 */
public record Console(
    Progress progress, OutputStream out, OutputStream err, Interrupts interrupts, InputStream in) {

  /**
   * Turns a signal that would end clusterrun (SIGINT, SIGTERM, SIGHUP) into {@code stop}, given the
   * signal's number, for as long as the handle is open.
   */
  @FunctionalInterface
  public interface Interrupts {
    Interrupts NONE = stop -> () -> {};

    Handle onInterrupt(IntConsumer stop);
  }

  /** Restores what an interrupt did before, when closed. */
  @FunctionalInterface
  public interface Handle extends AutoCloseable {
    @Override
    void close();
  }

  public Console {
    progress = progress == null ? Progress.NONE : progress;
    out = out == null ? OutputStream.nullOutputStream() : out;
    err = err == null ? OutputStream.nullOutputStream() : err;
    interrupts = interrupts == null ? Interrupts.NONE : interrupts;
    in = in == null ? InputStream.nullInputStream() : in;
  }
}
