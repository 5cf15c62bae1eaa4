package dev.clusterrun.core.launch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One node's output on a stream that several nodes share, as {@code srun --label} and pdsh show it:
 * each whole line written at once, prefixed with {@code "NODE: "}, so lines of different nodes
 * never mix. A last line without its newline is written, with one, on {@link #close}.
 */
final class LineLabels extends OutputStream {
  private final OutputStream target;
  private final byte[] prefix;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  /**
   * @param target the shared stream; writes to it are made while holding its lock
   * @param label the node, or null for whole lines without a prefix
   */
  LineLabels(OutputStream target, String label) {
    this.target = target;
    this.prefix = label == null ? new byte[0] : (label + ": ").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') {
      emit();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i + 1 - start);
        emit();
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
  }

  private void emit() throws IOException {
    // One write for the prefix and the line: whoever else writes to the target cannot come between.
    byte[] whole = new byte[prefix.length + line.size()];
    System.arraycopy(prefix, 0, whole, 0, prefix.length);
    byte[] l = line.toByteArray();
    System.arraycopy(l, 0, whole, prefix.length, l.length);
    synchronized (target) {
      target.write(whole);
      target.flush();
    }
    line.reset();
  }

  @Override
  public synchronized void close() throws IOException {
    if (line.size() > 0) {
      line.write('\n');
      emit();
    }
  }
}
