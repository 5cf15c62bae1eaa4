package dev.clusterrun.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C and SIGTERM during a run: instead of the JVM dying with the job half-stopped, the run is
 * told to stop (mpirun gets SIGINT, every node is searched for leftovers) and exits 130.
 */
@SuppressWarnings("restriction")
final class Signals {
  private Signals() {}

  /** Restores the previous handlers when closed. */
  interface Handler extends AutoCloseable {
    @Override
    void close();
  }

  static Handler onInterrupt(Runnable action) {
    Signal intr = new Signal("INT");
    Signal term = new Signal("TERM");
    SignalHandler mine = sig -> action.run();
    SignalHandler oldInt = Signal.handle(intr, mine);
    SignalHandler oldTerm = Signal.handle(term, mine);
    return () -> {
      Signal.handle(intr, oldInt);
      Signal.handle(term, oldTerm);
    };
  }
}
