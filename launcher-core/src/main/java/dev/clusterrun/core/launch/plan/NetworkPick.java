package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.NetworkFacts;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Setting;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.mpi.MpiTuning;
import dev.clusterrun.core.mpi.Networks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The network a run keeps Open MPI to, settled from {@code mpi.network} ({@code --network}) and,
 * for {@code auto}, from the addresses the nodes told {@code check}: the network the head reached
 * every node on.
 *
 * @param network what Open MPI, NCCL and UCX get, or null to leave them to their own choice
 * @param value the value as {@code plan} shows it
 * @param source where it came from ({@link Source#label()})
 * @param origin how it was found, for people
 * @param userParams interface-selection (and rsh/ssh) parameters the user keeps in {@code
 *     ~/.openmpi/mca-params.conf} (left to the user)
 */
public record NetworkPick(
    MpiTuning.Network network,
    String value,
    String source,
    String origin,
    List<String> userParams) {
  public NetworkPick {
    userParams = List.copyOf(userParams);
  }

  /**
   * The pick from the job's setting and the facts of every node (null when not gathered, e.g.
   * {@code --skip-checks}).
   */
  public static NetworkPick settle(ResolvedJob job, Map<String, Facts> facts, String head) {
    Setting<String> s = job.network();
    String v = s.value();
    List<String> user =
        facts == null || head == null ? List.of() : NetworkFacts.mcaFileParams(facts.get(head));
    String src = s.source().label();
    if (JobResolver.NETWORK_NONE.equals(v)) {
      return new NetworkPick(null, v, src, s.origin() + ": Open MPI's own choice", user);
    }
    List<Networks.NodeNet> nets = facts == null ? List.of() : NetworkFacts.of(facts);
    boolean rdma = nets.stream().anyMatch(Networks.NodeNet::rdma);
    if (!JobResolver.NETWORK_AUTO.equals(v)) {
      return new NetworkPick(
          new MpiTuning.Network(v, ifnames(v, nets), !rdma && !nets.isEmpty()),
          v,
          src,
          s.origin(),
          user);
    }
    if (facts == null) {
      return new NetworkPick(
          null, "(not chosen)", src, "auto: no facts were gathered (--skip-checks)", user);
    }
    Networks.Choice c = Networks.choose(nets);
    if (!c.found()) {
      return new NetworkPick(null, "(not chosen)", src, "auto: " + c.problem(), user);
    }
    String cidrs = String.join(",", c.cidrs());
    return new NetworkPick(
        new MpiTuning.Network(cidrs, c.ifnames(), !c.rdma()),
        cidrs,
        src,
        "auto: the network the head reached every node on (" + String.join(",", c.ifnames()) + ")",
        user);
  }

  /**
   * The interfaces {@code include} means: its names, and for each CIDR every node's interface on it
   * (when the facts tell).
   */
  private static List<String> ifnames(String include, List<Networks.NodeNet> nets) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String part : include.split(",")) {
      if (!Networks.isCidr(part)) {
        out.add(part);
        continue;
      }
      String[] f = part.split("/");
      int prefix = Integer.parseInt(f[1]);
      Integer net = Networks.parseAddress(f[0]);
      for (Networks.NodeNet n : nets) {
        for (Networks.Iface i : n.ifaces()) {
          if (i.prefix() >= prefix
              && new Networks.Iface("", net, prefix).holds(i.address())
              && !i.name().equals("lo")) {
            out.add(i.name());
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** The pick before any node was asked ({@code plan}): the setting as given. */
  public static NetworkPick unsettled(ResolvedJob job) {
    Setting<String> s = job.network();
    if (!JobResolver.NETWORK_AUTO.equals(s.value())) {
      return settle(job, null, null);
    }
    return new NetworkPick(
        null,
        s.value(),
        s.source().label(),
        "auto: run finds the network the head reaches every node on, from check's facts",
        List.of());
  }
}
