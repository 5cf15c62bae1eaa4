package dev.clusterrun.core.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * clusterrun's standard input copied into the job's process ({@code --stdin}): each read passed on
 * at once (a terminal's line reaches the job when it is typed), the process's input closed at the
 * end of ours, so the job reads its end of file; when the process stops reading (it ended), the
 * copy stops. Nobody waits for it: a copy blocked on a terminal that never ends does not hold
 * clusterrun up once the job is over (its thread is a daemon).
 *
 * <p>The end of the input only closes the job's input; it never ends the job.
 */
public final class InputPump {
  private static final int CHUNK = 64 * 1024;

  private InputPump() {}

  /** Starts copying {@code from} into {@code to}; returns at once. */
  public static void start(InputStream from, OutputStream to) {
    Thread t = new Thread(() -> copy(from, to), "clusterrun-stdin");
    t.setDaemon(true);
    t.start();
  }

  /** The copy itself, on the calling thread: until the end of {@code from} or a failed write. */
  static void copy(InputStream from, OutputStream to) {
    byte[] buf = new byte[CHUNK];
    try (to) {
      while (true) {
        int n;
        try {
          n = from.read(buf);
        } catch (IOException e) {
          n = -1; // our input closed or unreadable: the job sees its end
        }
        if (n < 0) {
          break;
        }
        to.write(buf, 0, n);
        to.flush();
      }
    } catch (IOException e) {
      // the process closed its input or ended: nothing more to copy
    }
  }
}
