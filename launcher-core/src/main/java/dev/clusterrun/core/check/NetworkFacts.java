package dev.clusterrun.core.check;

import dev.clusterrun.core.mpi.Networks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The network facts of the nodes ({@code net.*} of {@code facts.sh}) as {@link Networks} reads
 * them.
 */
public final class NetworkFacts {
  static final String ADDRS = "net.addrs";
  static final String SSH = "net.ssh";
  static final String RDMA = "net.rdma";
  static final String MCA_FILE = "net.mca_file";

  private NetworkFacts() {}

  /** Whether the node told its addresses ({@code ip} is installed there). */
  static boolean known(Facts f) {
    return f != null && f.answered() && f.raw().containsKey(ADDRS);
  }

  /** One node's network, or null when it did not answer or did not tell its addresses. */
  public static Networks.NodeNet of(Facts f) {
    if (!known(f)) {
      return null;
    }
    String ssh = f.raw().getOrDefault(SSH, "").strip();
    String[] w = ssh.isEmpty() ? new String[0] : ssh.split("\\s+");
    String reached = w.length >= 3 ? w[2] : null;
    int rdma = 0;
    try {
      rdma = Integer.parseInt(f.raw().getOrDefault(RDMA, "0").strip());
    } catch (NumberFormatException e) {
      rdma = 0;
    }
    return new Networks.NodeNet(
        f.node(), Networks.parseIfaces(f.raw().get(ADDRS)), reached, rdma > 0);
  }

  /** Every node's network that is known, in the order of {@code facts}. */
  public static List<Networks.NodeNet> of(Map<String, Facts> facts) {
    List<Networks.NodeNet> out = new ArrayList<>();
    for (Facts f : facts.values()) {
      Networks.NodeNet n = of(f);
      if (n != null) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * The interface-selection and rsh/ssh parameters the user keeps in {@code
   * ~/.openmpi/mca-params.conf} on {@code node} (e.g. {@code btl_tcp_if_include}, {@code
   * plm_rsh_args}).
   */
  public static List<String> mcaFileParams(Facts f) {
    String v = f == null ? null : f.raw().get(MCA_FILE);
    if (v == null || v.isBlank()) {
      return List.of();
    }
    return List.of(v.strip().split("\\s+"));
  }
}
