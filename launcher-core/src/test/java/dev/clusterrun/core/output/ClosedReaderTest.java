package dev.clusterrun.core.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.session.Console;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A reader that went away (EPIPE) stops the run as SIGPIPE would, and never throws. */
class ClosedReaderTest {
  /** A PrintStream over a real pipe whose reader ({@code head -c 1}) ends after one byte. */
  private static PrintStream pipeToHead(Process head) {
    return new PrintStream(head.getOutputStream(), false);
  }

  @Test
  void aGoneReaderStopsTheRunWithSigpipeOnceAndLaterWritesAreDropped() throws Exception {
    Process head = new ProcessBuilder("head", "-c", "1").start();
    ClosedReader r = new ClosedReader();
    PrintStream out = r.guard(pipeToHead(head));
    List<Integer> stops = new ArrayList<>();
    Console.Interrupts signals = stop -> () -> {};
    try (Console.Handle h = r.alongside(signals).onInterrupt(stops::add)) {
      out.print("x");
      out.flush();
      assertThat(head.waitFor(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 100 && stops.isEmpty(); i++) {
        out.print("more\n".repeat(1000));
        out.flush();
      }
      out.print("still no exception");
    }
    assertThat(stops).containsExactly(ClosedReader.SIGPIPE);
  }

  @Test
  void aReaderGoneBeforeTheJobStopsItAsSoonAsItsStopIsGiven() throws Exception {
    Process head = new ProcessBuilder("true").start();
    head.waitFor();
    ClosedReader r = new ClosedReader();
    PrintStream err = r.guard(pipeToHead(head));
    for (int i = 0; i < 100; i++) {
      err.print("progress line\n");
    }
    List<Integer> stops = new ArrayList<>();
    try (Console.Handle h = r.alongside(stop -> () -> {}).onInterrupt(stops::add)) {
      assertThat(stops).containsExactly(ClosedReader.SIGPIPE);
    }
  }

  @Test
  void aReaderThatStaysStopsNothing() throws Exception {
    ClosedReader r = new ClosedReader();
    try (FileOutputStream devNull = new FileOutputStream("/dev/null")) {
      PrintStream out = r.guard(new PrintStream(devNull));
      List<Integer> stops = new ArrayList<>();
      try (Console.Handle h = r.alongside(stop -> () -> {}).onInterrupt(stops::add)) {
        out.print("x".repeat(1 << 20));
        out.flush();
      }
      assertThat(stops).isEmpty();
    }
  }
}
