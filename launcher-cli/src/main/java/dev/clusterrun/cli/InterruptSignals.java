package dev.clusterrun.cli;

import dev.clusterrun.core.session.Console;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C and SIGTERM while a job runs: instead of the JVM dying with the job half-stopped, the run
 * is told to stop (mpirun gets SIGINT, every node is searched for leftovers) and exits 130.
 */
@SuppressWarnings("restriction")
final class InterruptSignals implements Console.Interrupts {
  @Override
  public Console.Handle onInterrupt(Runnable stop) {
    Signal intr = new Signal("INT");
    Signal term = new Signal("TERM");
    SignalHandler mine = sig -> stop.run();
    SignalHandler oldInt = Signal.handle(intr, mine);
    SignalHandler oldTerm = Signal.handle(term, mine);
    return () -> {
      Signal.handle(intr, oldInt);
      Signal.handle(term, oldTerm);
    };
  }
}
