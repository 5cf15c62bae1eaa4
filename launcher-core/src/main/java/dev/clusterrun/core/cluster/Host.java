package dev.clusterrun.core.cluster;

/**
 * One host line of an Open MPI hostfile, after range expansion.
 *
 * @param name host name or IPv4/IPv6 literal, as written
 * @param slots slots on this host ({@code 1} when the line gave none, see {@code slotsGiven};
 *     {@code M} when it gave only {@code max_slots=M}, as Open MPI does)
 * @param slotsGiven whether the line fixed the slot count ({@code slots=N}, or {@code max_slots=M}
 *     alone); when false the run-time resolver may choose another count
 * @param maxSlots {@code max_slots=M}, or 0 when not given
 * @param line 1-based line number in the hostfile
 */
public record Host(String name, int slots, boolean slotsGiven, int maxSlots, int line) {
  public Host {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("empty host name");
    }
  }

  /** The line as Open MPI should read it, with slots always explicit. */
  public String toHostfileLine() {
    return name + " slots=" + slots + (maxSlots > 0 ? " max_slots=" + maxSlots : "");
  }
}
