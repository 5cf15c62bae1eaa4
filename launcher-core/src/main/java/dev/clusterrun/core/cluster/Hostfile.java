package dev.clusterrun.core.cluster;

import java.util.List;

/**
 * A parsed hostfile: hosts in file order, ranges expanded, no duplicates.
 *
 * @param source how to name the file in messages (as the user gave it), or the node list's flag or
 *     variable ({@code --nodes}, {@code SLURM_JOB_NODELIST})
 * @param origin where the nodes came from, for people: the hostfile, or e.g. {@code
 *     SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)}
 */
public record Hostfile(String source, List<Host> hosts, String origin) {
  public Hostfile {
    hosts = List.copyOf(hosts);
  }

  /** A hostfile read from {@code source}, which is also its origin. */
  public Hostfile(String source, List<Host> hosts) {
    this(source, hosts, source);
  }

  /** These hosts, from the same source. */
  public Hostfile withHosts(List<Host> h, String newOrigin) {
    return new Hostfile(source, h, newOrigin);
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
