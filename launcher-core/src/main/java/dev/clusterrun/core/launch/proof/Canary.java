package dev.clusterrun.core.launch.proof;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Proof, before the job, that every rank runs inside this run's container: a short mpirun of the
 * job's shape whose ranks print their hostname, their mount namespace, the run id they see ({@code
 * CLUSTERRUN_RUN_ID}) and the token the head wrote into the run directory (through the workspace
 * mount). A rank in its node's own namespace ran on the host, outside any container (what a
 * silently skipped hook leads to); a rank in a container without this run's id or token was started
 * by another launch agent (another hook that writes its own, a stale configuration), without the
 * job's mounts. Only the launch agent gives the run id ({@code enroot start --env}): a replaced
 * agent cannot pass. mpirun forks the ranks of its own node itself, never through the agent, so
 * those ranks prove the token only.
 *
 * <p>Each node must answer with exactly the ranks mpirun places there: {@link Placement} predicts
 * them with Open MPI's own mapping, so a node that gets no rank (fewer ranks than slots) is not
 * missing.
 */
public final class Canary {
  public static final String TAG = "clusterrun-canary";

  /** The token file's name in the run directory. */
  public static final String TOKEN_FILE = "canary.token";

  /** What a rank prints for a value it does not have. */
  static final String NONE = "-";

  private Canary() {}

  private static final ShellScript SCRIPT = ShellScript.load(Canary.class, "canary.sh");

  /**
   * The command each rank runs (inside the container): {@code canary.sh}, which prints {@value
   * #TAG} and its answer ({@link #parse}).
   *
   * @param tokenPath the token file as the container sees it (under the workspace mount)
   */
  public static List<String> command(String tokenPath) {
    return List.of("sh", "-c", SCRIPT.with(List.of(tokenPath, TAG, NONE)));
  }

  /**
   * One rank's answer.
   *
   * @param runId the {@code CLUSTERRUN_RUN_ID} it saw, or {@code null}
   * @param token the token it read from the run directory, or {@code null}
   */
  public record Rank(String hostname, String mountNamespace, String runId, String token) {}

  /**
   * How many ranks mpirun places on each node: Open MPI's mapping over the hostfile it is given.
   * Open MPI (ORTE's {@code rmaps} and PRRTE alike) takes the nodes in daemon order: the node
   * mpirun runs on first when it is in the hostfile, then the others in hostfile order. By default
   * ({@code --map-by slot}) it fills each node's slots before the next; with {@code --map-by
   * ppr:N:node} it puts N on each node; either way it stops at {@code -np}.
   *
   * @param nodes hostfile names in hostfile order
   * @param slots slots of each node, in the same order
   * @param perNode ranks per node ({@code ppr:N:node}), or {@code null} to fill slots
   * @param unpredictable why clusterrun cannot predict the placement (mapping options among the
   *     job's own mpirun arguments), or {@code null}
   */
  public record Placement(
      List<String> nodes, List<Integer> slots, int np, Integer perNode, String unpredictable) {
    public Placement {
      nodes = List.copyOf(nodes);
      slots = List.copyOf(slots);
    }

    /** Where the job's ranks go on {@code hostfile}, as far as Open MPI's mapping is known. */
    public static Placement of(ResolvedJob job, Hostfile hostfile) {
      int np = job.np().value();
      return new Placement(
          hostfile.names(),
          hostfile.hosts().stream().map(Host::slots).toList(),
          np,
          job.perNode().value(),
          Canary.Placement.unpredictable(
              job.mpiArgs().value(), job.mca().value(), np, hostfile.totalSlots()));
    }

    /**
     * Ranks per node (every node, 0 where none goes), in hostfile order; empty when unpredictable.
     *
     * @param head the node mpirun runs on (may be outside the hostfile)
     */
    public Map<String, Integer> placement(String head) {
      Map<String, Integer> out = new LinkedHashMap<>();
      if (unpredictable != null) {
        return out;
      }
      List<Integer> order = new ArrayList<>();
      int h = nodes.indexOf(head);
      if (h >= 0) {
        order.add(h);
      }
      for (int i = 0; i < nodes.size(); i++) {
        out.put(nodes.get(i), 0);
        if (i != h) {
          order.add(i);
        }
      }
      int left = np;
      for (int i : order) {
        int n = Math.min(perNode != null ? perNode : slots.get(i), left);
        out.put(nodes.get(i), n);
        left -= n;
      }
      return out;
    }

    /**
     * The node of each rank, rank by rank (Open MPI's mapping as {@link #placement} counts it: each
     * node's ranks in a row), or empty when unpredictable.
     *
     * @param head the node mpirun runs on (may be outside the hostfile)
     */
    public List<String> rankNodes(String head) {
      List<String> out = new ArrayList<>();
      if (unpredictable != null) {
        return out;
      }
      int h = nodes.indexOf(head);
      List<Integer> order = new ArrayList<>();
      if (h >= 0) {
        order.add(h);
      }
      for (int i = 0; i < nodes.size(); i++) {
        if (i != h) {
          order.add(i);
        }
      }
      for (int i : order) {
        int n = Math.min(perNode != null ? perNode : slots.get(i), np - out.size());
        for (int k = 0; k < n; k++) {
          out.add(nodes.get(i));
        }
      }
      return out;
    }

    /**
     * mpirun options in the job's own arguments that change where ranks go: these, and the ones
     * that choose the hosts ({@link DaemonProof#HOST_LIST_OPTIONS}, {@link
     * DaemonProof#HOST_FILE_OPTIONS}).
     */
    private static final List<String> MAPPING_OPTIONS =
        Stream.of(
                List.of(
                    "--map-by",
                    "-map-by",
                    "--npernode",
                    "-npernode",
                    "-N",
                    "--pernode",
                    "-pernode",
                    "--npersocket",
                    "-npersocket",
                    "--ppr",
                    "--bynode",
                    "-bynode",
                    "--nolocal",
                    "-nolocal"),
                DaemonProof.HOST_LIST_OPTIONS,
                DaemonProof.HOST_FILE_OPTIONS)
            .flatMap(List::stream)
            .toList();

    /**
     * Why the job's own mpirun arguments or MCA parameters, or more ranks than slots (allowed when
     * the job asks for oversubscription), make the placement unknown to clusterrun, or {@code null}
     * when they do not.
     */
    public static String unpredictable(
        List<String> mpiArgs, Map<String, String> mca, int np, int totalSlots) {
      if (np > totalSlots) {
        return np + " ranks on " + totalSlots + " slots (oversubscribed)";
      }
      for (String a : mpiArgs) {
        if (MAPPING_OPTIONS.contains(DaemonProof.optionWord(a))) {
          return "the job's mpirun arguments place ranks themselves (" + a + ")";
        }
      }
      for (String k : mca.keySet()) {
        String key = k.toLowerCase(Locale.ROOT);
        if (key.startsWith("rmaps_") || key.startsWith("orte_default_hostfile")) {
          return "the job's MCA parameter " + k + " places ranks";
        }
      }
      return null;
    }
  }

  /**
   * What the canary showed for one node.
   *
   * @param node the hostfile name, or {@code null} for ranks from a host clusterrun does not know
   * @param hostname what {@code hostname} says there
   * @param expected ranks mpirun places there, or {@code null} when unknown
   * @param ranks ranks that answered
   * @param inside ranks inside this run's container: in a mount namespace other than the node's
   *     own, with this run's id and token
   * @param outside ranks in the node's own mount namespace: on the host, outside any container
   * @param foreign ranks in a container without this run's id or token: another launch agent
   * @param nodeNamespace the node's own mount namespace (read over SSH), null when unknown
   * @param foreignDetail what the first foreign rank lacked, e.g. {@code CLUSTERRUN_RUN_ID unset;
   *     the run directory not mounted}, or {@code null}
   */
  public record NodeVerdict(
      String node,
      String hostname,
      Integer expected,
      int ranks,
      int inside,
      int outside,
      int foreign,
      String nodeNamespace,
      String foreignDetail) {
    public boolean ok() {
      if (ranks == 0) {
        return expected == null || expected == 0;
      }
      return node != null
          && nodeNamespace != null
          && outside == 0
          && foreign == 0
          && (expected == null || ranks == expected);
    }
  }

  /**
   * The overall result, node by node in hostfile order (nodes that get no rank included).
   *
   * @param missing nodes where ranks were expected and none answered
   * @param expectedTotal ranks expected in all ({@code -np})
   */
  public record Verdict(
      List<NodeVerdict> nodes, List<String> missing, int expectedTotal, int exitCode) {
    public boolean ok() {
      return exitCode == 0
          && missing.isEmpty()
          && answered() == expectedTotal
          && nodes.stream().allMatch(NodeVerdict::ok);
    }

    /** Ranks that answered, from every node. */
    public int answered() {
      return nodes.stream().mapToInt(NodeVerdict::ranks).sum();
    }
  }

  /**
   * One node as the canary expects it.
   *
   * @param hostname what {@code hostname} says on the node (over SSH), or {@code null} when it did
   *     not answer
   * @param namespace the node's own mount namespace, or {@code null}
   * @param expected ranks mpirun places there, or {@code null} when unknown
   * @param viaAgent whether its ranks start through the launch agent (every node but mpirun's own)
   */
  public record Expected(String hostname, String namespace, Integer expected, boolean viaAgent) {}

  public static List<Rank> parse(String output) {
    List<Rank> out = new ArrayList<>();
    for (String line : output.split("\n")) {
      String l = line.strip();
      int i = l.indexOf(TAG + " ");
      if (i < 0) {
        continue;
      }
      String[] f = l.substring(i + TAG.length() + 1).trim().split("\\s+");
      if (f.length >= 2) {
        out.add(
            new Rank(
                f[0],
                f[1],
                f.length > 2 && !f[2].equals(NONE) ? f[2] : null,
                f.length > 3 && !f[3].equals(NONE) ? f[3] : null));
      }
    }
    return out;
  }

  /**
   * @param expected every hostfile node (hostfile order) with its hostname, namespace and ranks
   * @param runId this run's id
   * @param token the token the head wrote for this run
   * @param np ranks mpirun starts in all
   */
  public static Verdict judge(
      List<Rank> ranks,
      Map<String, Expected> expected,
      String runId,
      String token,
      int np,
      int exitCode) {
    Map<String, String> nodeOf = new LinkedHashMap<>();
    expected.forEach(
        (node, e) -> {
          if (e.hostname() != null) {
            nodeOf.putIfAbsent(e.hostname(), node);
          }
        });
    // node (or "?hostname" for unknown hosts) -> [ranks, inside, outside, foreign]
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (String node : expected.keySet()) {
      counts.put(node, new int[4]);
    }
    Map<String, String> unknownHost = new LinkedHashMap<>();
    Map<String, String> why = new LinkedHashMap<>();
    for (Rank r : ranks) {
      String node = nodeOf.get(r.hostname());
      String key = node != null ? node : "?" + r.hostname();
      if (node == null) {
        unknownHost.put(key, r.hostname());
      }
      int[] c = counts.computeIfAbsent(key, k -> new int[4]);
      c[0]++;
      String ns = node != null ? expected.get(node).namespace() : null;
      if (ns != null && ns.equals(r.mountNamespace())) {
        c[2]++;
      } else {
        c[1]++;
        boolean agent = node == null || expected.get(node).viaAgent();
        boolean idOk = !agent || runId.equals(r.runId());
        if (!idOk || !token.equals(r.token())) {
          c[3]++;
          List<String> lacks = new ArrayList<>();
          if (!idOk && r.runId() == null) {
            lacks.add("CLUSTERRUN_RUN_ID unset");
          } else if (!idOk) {
            lacks.add("CLUSTERRUN_RUN_ID=" + r.runId() + ", another run's");
          }
          if (r.token() == null) {
            lacks.add("the run directory not mounted");
          } else if (!token.equals(r.token())) {
            lacks.add("another run directory mounted");
          }
          why.putIfAbsent(key, String.join("; ", lacks));
        }
      }
    }
    List<NodeVerdict> nodes = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    counts.forEach(
        (key, c) -> {
          if (key.startsWith("?")) {
            nodes.add(
                new NodeVerdict(
                    null, unknownHost.get(key), null, c[0], c[1], c[2], c[3], null, why.get(key)));
            return;
          }
          Expected e = expected.get(key);
          nodes.add(
              new NodeVerdict(
                  key,
                  e.hostname(),
                  e.expected(),
                  c[0],
                  c[1] - c[3],
                  c[2],
                  c[3],
                  e.namespace(),
                  why.get(key)));
          if (c[0] == 0 && e.expected() != null && e.expected() > 0) {
            missing.add(key);
          }
        });
    return new Verdict(nodes, missing, np, exitCode);
  }
}
