package dev.clusterrun.core.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/** A stream that adds the bytes written through it to a counter (summary.json's outputBytes). */
public final class Counted extends FilterOutputStream {
  private final AtomicLong count;

  public Counted(OutputStream out, AtomicLong count) {
    super(out);
    this.count = count;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    count.incrementAndGet();
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    count.addAndGet(len);
  }
}
