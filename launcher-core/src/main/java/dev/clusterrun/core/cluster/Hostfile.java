package dev.clusterrun.core.cluster;

import java.util.List;

/**
 * A parsed hostfile: hosts in file order, ranges expanded, no duplicates.
 *
 * @param source how to name the file in messages (as the user gave it)
 */
public record Hostfile(String source, List<Host> hosts) {
  public Hostfile {
    hosts = List.copyOf(hosts);
  }

  public int totalSlots() {
    int n = 0;
    for (Host h : hosts) {
      n += h.slots();
    }
    return n;
  }

  public List<String> names() {
    return hosts.stream().map(Host::name).toList();
  }

  /** The hostfile mpirun will read: one line per host, slots explicit. */
  public String render() {
    StringBuilder b = new StringBuilder();
    for (Host h : hosts) {
      b.append(h.toHostfileLine()).append('\n');
    }
    return b.toString();
  }
}
