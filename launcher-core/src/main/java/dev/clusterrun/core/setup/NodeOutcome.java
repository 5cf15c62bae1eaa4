package dev.clusterrun.core.setup;

import java.util.List;

/**
 * What setup did (or, in a dry run, would do) on one node. Failures are data: a report over many
 * nodes shows which ones failed and why, beside those that worked.
 *
 * @param node the node's name as the hostfile gives it
 * @param status the outcome
 * @param changes the files written ({@code CHANGED}), to be written ({@code WOULD_CHANGE}), or
 *     planned when the node failed; empty when {@code UNCHANGED}
 * @param reason why the node failed, without the node's name; {@code null} unless {@code FAILED}
 */
public record NodeOutcome(String node, Status status, List<FileChange> changes, String reason) {

  public enum Status {
    /** Files were written (and read back correct). */
    CHANGED,
    /** Everything was already in place; nothing was written. */
    UNCHANGED,
    /** Nothing was written (or everything was rolled back), see {@code reason}. */
    FAILED,
    /** Dry run: these changes would be made. */
    WOULD_CHANGE
  }

  public NodeOutcome {
    changes = List.copyOf(changes);
  }

  public static NodeOutcome changed(String node, List<FileChange> changes) {
    return new NodeOutcome(node, Status.CHANGED, changes, null);
  }

  public static NodeOutcome unchanged(String node) {
    return new NodeOutcome(node, Status.UNCHANGED, List.of(), null);
  }

  public static NodeOutcome wouldChange(String node, List<FileChange> changes) {
    return new NodeOutcome(node, Status.WOULD_CHANGE, changes, null);
  }

  public static NodeOutcome failed(String node, String reason, List<FileChange> planned) {
    return new NodeOutcome(node, Status.FAILED, planned, reason);
  }

  public boolean failed() {
    return status == Status.FAILED;
  }

  /** One line for people: {@code node2: setup needs root: sudo -n failed: ...}. */
  public String message() {
    return switch (status) {
      case FAILED -> node + ": " + reason;
      case UNCHANGED -> node + ": unchanged";
      case CHANGED -> node + ": changed: " + files();
      case WOULD_CHANGE -> node + ": would change: " + files();
    };
  }

  private String files() {
    StringBuilder b = new StringBuilder();
    for (FileChange c : changes) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(c.path()).append(" (").append(c.action().pastTense()).append(')');
    }
    return b.toString();
  }
}
