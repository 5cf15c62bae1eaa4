package dev.clusterrun.core.launch.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One node's output on a stream that several nodes share, as {@code srun --label} and pdsh show it:
 * each whole line written at once, prefixed with {@code "NODE: "}, so lines of different nodes
 * never mix. A last line without its newline is written, with one, on {@link #close}.
 */
public final class LineLabels extends OutputStream {
  private final OutputStream target;
  private final byte[] prefix;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  /**
   * @param target the shared stream; writes to it are made while holding its lock
   * @param label the node, or null for whole lines without a prefix
   */
  public LineLabels(OutputStream target, String label) {
    this.target = target;
    this.prefix = label == null ? new byte[0] : (label + ": ").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  /**
   * Every line the bytes complete goes out in one write to the target, each with its prefix: a
   * chunk of many short lines costs one write and one flush, not one per line (a rank printing a
   * million lines).
   */
  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    ByteArrayOutputStream whole = null;
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        if (whole == null) {
          whole = new ByteArrayOutputStream(len + 16 * prefix.length + line.size());
        }
        whole.write(prefix);
        line.writeTo(whole);
        line.reset();
        whole.write(b, start, i + 1 - start);
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
    if (whole != null) {
      emit(whole);
    }
  }

  private void emit(ByteArrayOutputStream whole) throws IOException {
    // One write for the lines and their prefixes: whoever else writes to the target cannot come
    // between.
    synchronized (target) {
      whole.writeTo(target);
      target.flush();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (line.size() > 0) {
      ByteArrayOutputStream whole = new ByteArrayOutputStream(prefix.length + line.size() + 1);
      whole.write(prefix);
      line.writeTo(whole);
      whole.write('\n');
      line.reset();
      emit(whole);
    }
  }
}
