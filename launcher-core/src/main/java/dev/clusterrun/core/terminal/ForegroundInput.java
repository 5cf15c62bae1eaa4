package dev.clusterrun.core.terminal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * clusterrun's standard input for the job ({@code --stdin}), read as mpirun reads its own: from a
 * terminal only while clusterrun is the terminal's foreground job. A background job that reads its
 * terminal is stopped by the kernel (SIGTTIN), the whole JVM with it; so in the background each
 * read waits until clusterrun is brought to the foreground ({@code fg}). Files and pipes are read
 * as they are.
 */
public final class ForegroundInput extends FilterInputStream {
  private static final long WAIT_MILLIS = 250;
  private final boolean terminal;

  public ForegroundInput(InputStream in) {
    super(in);
    this.terminal = isTerminal();
  }

  @Override
  public int read() throws IOException {
    awaitForeground();
    return super.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    awaitForeground();
    return super.read(b, off, len);
  }

  private void awaitForeground() throws IOException {
    while (terminal && !foreground()) {
      try {
        Thread.sleep(WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for the foreground");
      }
    }
  }

  /** Whether file descriptor 0 is a terminal (Linux: its link names a tty device). */
  private static boolean isTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
      return target.startsWith("/dev/pts/")
          || target.startsWith("/dev/tty")
          || target.startsWith("/dev/console");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /**
   * Whether this process's group is its terminal's foreground group: fields 5 (pgrp) and 8 (tpgid)
   * of {@code /proc/self/stat}, counted after the command name's closing parenthesis.
   */
  static boolean foreground() {
    try {
      return foreground(Files.readString(Path.of("/proc/self/stat")));
    } catch (IOException | RuntimeException e) {
      return true; // cannot tell: read as before
    }
  }

  static boolean foreground(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // after "pid (comm) ": state ppid pgrp session tty_nr tpgid
    return f[2].equals(f[5]);
  }
}
