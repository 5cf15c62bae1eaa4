package dev.clusterrun.core.terminal;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;

/**
 * clusterrun's standard input, read through a channel so that a read still blocked in it when
 * clusterrun ends is ended by {@link #release}. The job's input is copied on a thread that stays in
 * {@code read(0)} as long as the terminal or the pipe stays open, and HotSpot's exit waits up to
 * 300 ms for every thread in native code (30 polls of 10 ms): a plain read of file descriptor 0
 * made every run with an open input end 0.3 s after its job. Closing the channel signals the thread
 * out of the system call (the read then fails as closed, and the copy ends).
 */
public final class StandardInput {
  private static final FileChannel CHANNEL = new FileInputStream(FileDescriptor.in).getChannel();

  private StandardInput() {}

  /** clusterrun's standard input as a stream; reads are the channel's. */
  public static InputStream stream() {
    return Channels.newInputStream(CHANNEL);
  }

  /** Ends a read blocked in the standard input, and every later one: called as clusterrun exits. */
  public static void release() {
    try {
      CHANNEL.close();
    } catch (IOException e) {
      // exiting anyway
    }
  }
}
