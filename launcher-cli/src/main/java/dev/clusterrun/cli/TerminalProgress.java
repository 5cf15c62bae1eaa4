package dev.clusterrun.cli;

import dev.clusterrun.core.session.Progress;
import java.io.PrintWriter;
import java.util.List;

/**
 * Progress for people on stderr: notes as {@code clusterrun: <line>}, and on a terminal which nodes
 * a round still waits for, updated in place.
 */
final class TerminalProgress implements Progress {
  private final PrintWriter err;
  private final boolean live;
  private boolean dirty;

  TerminalProgress(PrintWriter err, boolean live) {
    this.err = err;
    this.live = live;
  }

  static TerminalProgress forTerminal(PrintWriter err) {
    return new TerminalProgress(err, System.console() != null);
  }

  @Override
  public synchronized void phase(String phase, List<String> nodes) {
    pending(phase, nodes);
  }

  @Override
  public synchronized void finished(String phase, String node, List<String> pending) {
    pending(phase, pending);
  }

  private void pending(String what, List<String> pending) {
    if (!live) {
      return;
    }
    String list =
        pending.size() <= 6
            ? String.join(" ", pending)
            : String.join(" ", pending.subList(0, 6)) + " … (+" + (pending.size() - 6) + ")";
    err.print(
        "\r\033[2Kclusterrun: "
            + what
            + ": waiting for "
            + pending.size()
            + (pending.size() == 1 ? " node" : " nodes")
            + (pending.isEmpty() ? "" : ": " + list));
    err.flush();
    dirty = true;
  }

  @Override
  public synchronized void done(String phase) {
    if (dirty) {
      err.print("\r\033[2K");
      err.flush();
      dirty = false;
    }
  }

  @Override
  public synchronized void note(String line) {
    done("");
    err.println("clusterrun: " + line);
    err.flush();
  }
}
