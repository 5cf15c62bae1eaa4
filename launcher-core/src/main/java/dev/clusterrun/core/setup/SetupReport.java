package dev.clusterrun.core.setup;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.clusterrun.core.Json;
import java.util.List;

/**
 * The outcome of {@code clusterrun setup} over all nodes, rendered for people ({@link #text()}) or
 * programs ({@link #json()}).
 *
 * @param dryRun whether nothing was written on purpose
 * @param nodes one outcome per node, in hostfile order
 */
public record SetupReport(boolean dryRun, List<NodeOutcome> nodes) {

  public SetupReport {
    nodes = List.copyOf(nodes);
  }

  /** True when no node failed. */
  @JsonProperty("ok")
  public boolean ok() {
    return nodes.stream().noneMatch(NodeOutcome::failed);
  }

  public long count(NodeOutcome.Status status) {
    return nodes.stream().filter(n -> n.status() == status).count();
  }

  /**
   * One line per node, then (dry run) the diffs of the files that would change, then a summary
   * line, e.g.:
   *
   * <pre>
   * node1: changed: /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh (created), ...
   *   backup: /etc/enroot/enroot.conf.d/50-clusterrun.conf.clusterrun-backup-20260101T000000Z
   * node2: unchanged
   * node3: failed: setup needs root: sudo -n failed: a password is required
   * setup: 1 changed, 1 unchanged, 1 failed
   * </pre>
   */
  public String text() {
    StringBuilder b = new StringBuilder();
    for (NodeOutcome n : nodes) {
      switch (n.status()) {
        case FAILED -> b.append(n.node()).append(": failed: ").append(n.reason()).append('\n');
        default -> b.append(n.message()).append('\n');
      }
      if (n.status() == NodeOutcome.Status.CHANGED) {
        for (FileChange c : n.changes()) {
          if (c.backup() != null) {
            b.append("  backup: ").append(c.backup()).append('\n');
          }
        }
      }
      if (n.status() == NodeOutcome.Status.WOULD_CHANGE) {
        for (FileChange c : n.changes()) {
          b.append("  ").append(c.path()).append(": ").append(c.detail()).append('\n');
          for (String line : UnifiedDiff.lines(c.diff())) {
            b.append("    ").append(line);
          }
        }
      }
    }
    b.append("setup").append(dryRun ? " (dry run)" : "").append(": ");
    if (dryRun) {
      b.append(count(NodeOutcome.Status.WOULD_CHANGE)).append(" would change, ");
    } else {
      b.append(count(NodeOutcome.Status.CHANGED)).append(" changed, ");
    }
    b.append(count(NodeOutcome.Status.UNCHANGED)).append(" unchanged, ");
    b.append(count(NodeOutcome.Status.FAILED)).append(" failed\n");
    return b.toString();
  }

  /** The report as JSON: {@code {"dryRun":..,"nodes":[{"node":..,"status":..,...}],"ok":..}}. */
  public String json() {
    return Json.pretty(this);
  }
}
