package dev.clusterrun.core.terminal;

import dev.clusterrun.core.session.Console;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C, SIGTERM and SIGHUP while a job runs: instead of the JVM dying with the job half-stopped,
 * the run is told to stop (mpirun gets SIGINT, every node is searched for leftovers) and exits
 * 128+N (130, 143, 129). SIGKILL cannot be caught: {@code Lifeline} covers it.
 */
@SuppressWarnings("restriction")
public final class InterruptSignals implements Console.Interrupts {
  /** The signals that end clusterrun in an orderly way while a job runs. */
  static final List<String> NAMES = List.of("INT", "TERM", "HUP");

  @Override
  public Console.Handle onInterrupt(IntConsumer stop) {
    List<Signal> signals = new ArrayList<>();
    List<SignalHandler> old = new ArrayList<>();
    SignalHandler mine = sig -> stop.accept(sig.getNumber());
    for (String name : NAMES) {
      Signal s = new Signal(name);
      SignalHandler before = Signal.handle(s, mine);
      if (before == SignalHandler.SIG_IGN) {
        // Ignored by whoever started clusterrun (nohup ignores SIGHUP): it stays ignored.
        Signal.handle(s, before);
        continue;
      }
      signals.add(s);
      old.add(before);
    }
    return () -> {
      for (int i = 0; i < signals.size(); i++) {
        Signal.handle(signals.get(i), old.get(i));
      }
    };
  }
}
