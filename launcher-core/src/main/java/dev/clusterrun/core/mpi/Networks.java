package dev.clusterrun.core.mpi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IPv4 networks of the nodes, and the one that carries the hostfile's addresses on every node:
 * the network Open MPI must keep to, so that a second interface present on every node with the same
 * address (Docker's {@code docker0} 172.17.0.1/16) is never taken for a peer. Pure: the nodes'
 * interfaces and the address each node was reached at come in as data.
 */
public final class Networks {
  private static final Pattern CIDR =
      Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
  private static final Pattern ADDRESS =
      Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

  private Networks() {}

  /**
   * One IPv4 address of one interface.
   *
   * @param address the address as a 32-bit number
   * @param prefix the prefix length of its network
   */
  public record Iface(String name, int address, int prefix) {
    /** The network's first address, as a number. */
    public int network() {
      return address & mask(prefix);
    }

    /** The network in CIDR notation, e.g. {@code 10.0.0.0/24}. */
    public String cidr() {
      return text(network()) + "/" + prefix;
    }

    /** The address as dotted text. */
    public String addressText() {
      return text(address);
    }

    /** Whether {@code a} lies in this interface's network. */
    public boolean holds(int a) {
      return (a & mask(prefix)) == network();
    }

    boolean loopback() {
      return (address >>> 24) == 127;
    }

    /** {@code docker0 172.17.0.1/16}, as {@code ip -o -4 addr} shows it. */
    @Override
    public String toString() {
      return name + " " + addressText() + "/" + prefix;
    }
  }

  /**
   * What one node told about its network.
   *
   * @param ifaces its IPv4 addresses, loopback included or not
   * @param reachedAt the address the head's SSH connection reached it at ({@code SSH_CONNECTION}),
   *     or null (the head itself, or unknown)
   * @param rdma whether it has an RDMA device (InfiniBand, RoCE): then UCX is left alone
   */
  public record NodeNet(String node, List<Iface> ifaces, String reachedAt, boolean rdma) {
    public NodeNet {
      ifaces = List.copyOf(ifaces);
    }

    /** The interface holding {@code address} itself, or null. */
    Iface carrying(int address) {
      return ifaces.stream().filter(i -> i.address() == address).findFirst().orElse(null);
    }

    /** The first (non-loopback) interface whose network holds {@code network}'s first address. */
    Iface on(Iface network) {
      return ifaces.stream()
          .filter(i -> !i.loopback() && i.prefix() == network.prefix())
          .filter(i -> i.network() == network.network())
          .findFirst()
          .orElse(null);
    }
  }

  /**
   * The network chosen, or why there is none.
   *
   * @param cidrs the networks (usually one) in CIDR notation, for {@code btl_tcp_if_include}
   * @param ifaceByNode each node's interface on them, for {@code NCCL_SOCKET_IFNAME}
   * @param rdma whether some node has an RDMA device
   * @param problem why no network could be chosen (then {@code cidrs} is empty), or null
   * @param missing the nodes the problem is about (none: every node)
   */
  public record Choice(
      List<String> cidrs,
      Map<String, String> ifaceByNode,
      boolean rdma,
      String problem,
      List<String> missing) {
    public Choice {
      cidrs = List.copyOf(cidrs);
      missing = List.copyOf(missing);
      ifaceByNode = Collections.unmodifiableMap(new LinkedHashMap<>(ifaceByNode));
    }

    static Choice none(String problem) {
      return new Choice(List.of(), Map.of(), false, problem, List.of());
    }

    public boolean found() {
      return !cidrs.isEmpty();
    }

    /** The interface names, each once, in node order. */
    public List<String> ifnames() {
      return List.copyOf(new LinkedHashSet<>(ifaceByNode.values()));
    }
  }

  /**
   * The network(s) the nodes were reached on, provided every node has an address on one of them;
   * the head (reached at no address) needs an address on one of them too.
   */
  public static Choice choose(List<NodeNet> nodes) {
    Map<String, Iface> networks = new LinkedHashMap<>();
    List<String> unknown = new ArrayList<>();
    for (NodeNet n : nodes) {
      if (n.reachedAt() == null || n.reachedAt().isEmpty()) {
        continue;
      }
      Integer a = parseAddress(n.reachedAt());
      if (a == null) {
        unknown.add(n.node() + " (reached at " + n.reachedAt() + ", not an IPv4 address)");
        continue;
      }
      Iface i = n.carrying(a);
      if (i == null) {
        unknown.add(n.node() + " (reached at " + n.reachedAt() + ", an address it does not carry)");
        continue;
      }
      if (i.loopback()) {
        continue;
      }
      networks.putIfAbsent(i.cidr(), i);
    }
    if (networks.isEmpty()) {
      return Choice.none(
          unknown.isEmpty()
              ? "no node was reached over the network (a single node, or only the head)"
              : "the address a node was reached at is not one of its own: "
                  + String.join(", ", unknown));
    }
    Map<String, String> ifaceByNode = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    boolean rdma = false;
    for (NodeNet n : nodes) {
      rdma |= n.rdma();
      Iface on = null;
      for (Iface net : networks.values()) {
        on = n.on(net);
        if (on != null) {
          break;
        }
      }
      if (on == null) {
        missing.add(n.node());
      } else {
        ifaceByNode.put(n.node(), on.name());
      }
    }
    List<String> cidrs = networks.values().stream().map(Iface::cidr).toList();
    if (!missing.isEmpty()) {
      return new Choice(
          List.of(),
          Map.of(),
          rdma,
          String.join(", ", missing)
              + (missing.size() == 1 ? " has" : " have")
              + " no address on "
              + String.join(", ", cidrs)
              + ", the network the other nodes were reached on",
          missing);
    }
    return new Choice(cidrs, ifaceByNode, rdma, null, List.of());
  }

  /**
   * An address held by more than one node (not loopback).
   *
   * @param ifaceByNode each such node's interface holding it
   */
  public record Collision(String address, Map<String, String> ifaceByNode) {}

  /** Every address that more than one node holds, in node order. */
  public static List<Collision> collisions(List<NodeNet> nodes) {
    Map<Integer, Map<String, String>> holders = new LinkedHashMap<>();
    for (NodeNet n : nodes) {
      Set<Integer> seen = new LinkedHashSet<>();
      for (Iface i : n.ifaces()) {
        if (!i.loopback() && seen.add(i.address())) {
          holders.computeIfAbsent(i.address(), k -> new LinkedHashMap<>()).put(n.node(), i.name());
        }
      }
    }
    List<Collision> out = new ArrayList<>();
    holders.forEach(
        (a, m) -> {
          if (m.size() > 1) {
            out.add(new Collision(text(a), m));
          }
        });
    return out;
  }

  /**
   * {@code ip -o -4 addr show} lines ({@code 2: eth0 inet 10.0.0.5/24 brd … scope global eth0}) or
   * the short form {@code eth0 10.0.0.5/24}; lines that are neither are skipped.
   */
  public static List<Iface> parseIfaces(String text) {
    List<Iface> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    Pattern longForm = Pattern.compile("^\\d+:\\s+(\\S+)\\s+inet\\s+(\\S+)");
    Pattern shortForm = Pattern.compile("^(\\S+)\\s+(\\S+)$");
    for (String line : text.split("\n")) {
      String l = line.strip();
      Matcher m = longForm.matcher(l);
      if (!m.find()) {
        m = shortForm.matcher(l);
        if (!m.find()) {
          continue;
        }
      }
      String name = m.group(1);
      int at = name.indexOf('@');
      if (at > 0) {
        name = name.substring(0, at);
      }
      Matcher c = CIDR.matcher(m.group(2));
      if (c.matches()) {
        Integer a = address(c);
        int p = Integer.parseInt(c.group(5));
        if (a != null && p <= 32) {
          out.add(new Iface(name, a, p));
        }
      }
    }
    return out;
  }

  /** Whether {@code s} is an IPv4 network in CIDR notation ({@code 10.0.0.0/24}). */
  public static boolean isCidr(String s) {
    Matcher c = CIDR.matcher(s);
    return c.matches() && address(c) != null && Integer.parseInt(c.group(5)) <= 32;
  }

  /** The dotted address as a number, or null when it is not one. */
  public static Integer parseAddress(String s) {
    Matcher m = ADDRESS.matcher(s);
    return m.matches() ? address(m) : null;
  }

  private static Integer address(Matcher m) {
    int a = 0;
    for (int g = 1; g <= 4; g++) {
      int o = Integer.parseInt(m.group(g));
      if (o > 255) {
        return null;
      }
      a = (a << 8) | o;
    }
    return a;
  }

  static int mask(int prefix) {
    return prefix == 0 ? 0 : -1 << (32 - prefix);
  }

  static String text(int a) {
    return (a >>> 24) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "." + (a & 255);
  }
}
