package dev.clusterrun.core.terminal;

import dev.clusterrun.core.session.Progress;
import java.util.List;
import java.util.function.Consumer;

/**
 * Progress as text for people on stderr: notes as {@code clusterrun: <line>}, and on a terminal
 * ({@code live}) which nodes a round still waits for, updated in place. Each piece of text goes to
 * {@code show}, which the CLI prints.
 */
public final class TerminalProgress implements Progress {
  private final Consumer<String> show;
  private final boolean live;
  private boolean dirty;

  public TerminalProgress(Consumer<String> show, boolean live) {
    this.show = show;
    this.live = live;
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
    show.accept(
        "\r\033[2Kclusterrun: "
            + what
            + ": waiting for "
            + pending.size()
            + (pending.size() == 1 ? " node" : " nodes")
            + (pending.isEmpty() ? "" : ": " + list));
    dirty = true;
  }

  @Override
  public synchronized void done(String phase) {
    if (dirty) {
      show.accept("\r\033[2K");
      dirty = false;
    }
  }

  @Override
  public synchronized void note(String line) {
    done("");
    show.accept("clusterrun: " + line + System.lineSeparator());
  }
}
