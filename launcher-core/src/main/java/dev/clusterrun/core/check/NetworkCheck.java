package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.names;

import dev.clusterrun.core.mpi.Networks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code network} check: the nodes share the network the head reached them on, and no address
 * (Docker's 172.17.0.1 on {@code docker0}) is held by several nodes, where Open MPI left to itself
 * would take a node's own interface for a peer's.
 */
final class NetworkCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, Networks.NodeNet> nets = new LinkedHashMap<>();
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : answered(in)) {
      Facts f = in.facts().get(n);
      Networks.NodeNet net = NetworkFacts.of(f);
      if (net == null) {
        out.put(n, skip(n, "addresses unknown (no `ip` command on the node)"));
      } else {
        nets.put(n, net);
      }
    }
    List<Networks.NodeNet> list = new ArrayList<>(nets.values());
    Networks.Choice choice = Networks.choose(list);
    List<Networks.Collision> collisions = Networks.collisions(list);
    String chosen = choice.found() ? String.join(",", choice.cidrs()) : null;
    for (Networks.NodeNet net : list) {
      String n = net.node();
      List<String> problems = new ArrayList<>();
      for (Networks.Collision c : collisions) {
        String iface = c.ifaceByNode().get(n);
        if (iface == null) {
          continue;
        }
        List<String> others = new ArrayList<>(c.ifaceByNode().keySet());
        others.remove(n);
        problems.add(
            iface
                + " "
                + c.address()
                + " is also on "
                + names(others)
                + (iface.startsWith("docker") ? " (Docker's bridge)" : "")
                + ": Open MPI left to itself takes it for a peer and hangs");
      }
      if (chosen == null && choice.missing().contains(n)) {
        problems.add("no network shared by every node: " + choice.problem());
      }
      if (problems.isEmpty()) {
        String iface = choice.ifaceByNode().get(n);
        out.put(
            n,
            pass(
                n,
                chosen != null
                    ? "on " + chosen + (iface == null ? "" : " (" + iface + ")")
                    : choice.missing().isEmpty()
                        ? "no address shared with another node"
                        : "has an address on the network the head reached it on"));
      } else {
        out.put(
            n,
            warn(
                n,
                String.join("; ", problems),
                chosen != null
                    ? "clusterrun run keeps Open MPI to "
                        + chosen
                        + " by itself; a hand-typed mpirun needs --mca btl_tcp_if_include "
                        + chosen
                        + " --mca oob_tcp_if_include "
                        + chosen
                    : "give every node an address on one network and name it with --network"
                        + " CIDR|IFACE"));
      }
    }
    return out;
  }
}
