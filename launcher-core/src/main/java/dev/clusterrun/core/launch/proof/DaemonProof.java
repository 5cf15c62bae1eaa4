package dev.clusterrun.core.launch.proof;

import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Proof carried by the job's own launch: the launch agent runs a small script of the run (in the
 * run directory, seen through the workspace mount) inside the container before it execs the Open
 * MPI daemon. The script checks that it has this run's id ({@code CLUSTERRUN_RUN_ID}, which only
 * the run's agent gives) and that the job's mounts are there, and prints one line on its standard
 * error, which reaches mpirun's: {@code clusterrun-proof RUN_ID HOSTNAME MOUNT_NAMESPACE ok}, or
 * {@code … fail WHY} (then it exits 3 instead of starting the daemon). Open MPI starts a daemon on
 * every hostfile node but mpirun's own (whatever {@code -np}), and ranks only once every daemon has
 * called back, so the head knows which lines to expect before any rank can print. A daemon started
 * by another agent (a foreign hook that replaced clusterrun's) leaves no line at all; a daemon in
 * its node's own mount namespace ran outside any container. Ranks on mpirun's own node are inside
 * the container by construction: mpirun forks them itself.
 */
public final class DaemonProof {
  /** enroot's message when it cannot lock a container's rootfs ({@code runtime::_start}). */
  static final String ROOTFS_LOCK = "Could not acquire rootfs lock";

  /** How many different error lines of the nodes a failure names. */
  static final int ERRORS_KEPT = 4;

  /**
   * A line of a node's error: enroot's {@code [ERROR] …}/{@code [WARN] …}, or a program's {@code
   * PROGRAM: …} ({@code bash: orted: command not found}, {@code mkdir: cannot create directory …}).
   */
  static final Pattern NODE_ERROR = Pattern.compile("^(\\[(ERROR|WARN)\\] |[A-Za-z0-9_./-]+: \\S)");

  /** The tag that starts every proof line. */
  public static final String TAG = "clusterrun-proof";

  /** The script's file name in the run directory. */
  public static final String FILE = "agent-proof.sh";

  /** What the script prints for a value it cannot read. */
  static final String NONE = "-";

  private DaemonProof() {}

  /** The script's text: {@code agent-proof.sh} beside this class. */
  private static final ShellScript SCRIPT = ShellScript.load(DaemonProof.class, FILE);

  /**
   * The script: {@code agent-proof.sh} (POSIX sh, only builtins and {@code readlink}, since the
   * image may be minimal), after a line that sets its parameters: the run id, the number of mount
   * targets, the targets, then the daemon's command the agent gives the file.
   *
   * @param runId the run's id
   * @param mountTargets where the job's mounts must be, inside the container
   */
  public static String script(String runId, List<String> mountTargets) {
    List<String> args = new ArrayList<>();
    args.add(runId);
    args.add(Integer.toString(mountTargets.size()));
    args.addAll(mountTargets);
    return SCRIPT.before(args);
  }

  /**
   * One line a daemon left.
   *
   * @param problem what the script found wrong (null when it found nothing)
   * @param joined whether the daemon joined the container begun on its node during the checks
   *     ({@code ok joined}: {@code enroot.AgentJoin})
   */
  public record Line(
      String runId, String hostname, String mountNamespace, String problem, boolean joined) {}

  /** The proof line in {@code line}, or null when it is none. */
  public static Line parse(String line) {
    String l = line.strip();
    if (!l.startsWith(TAG + " ")) {
      return null;
    }
    String[] f = l.substring(TAG.length() + 1).trim().split("\\s+", 5);
    if (f.length < 4) {
      return null;
    }
    String problem = null;
    boolean joined = f[3].equals("ok") && f.length > 4 && f[4].strip().equals("joined");
    if (!f[3].equals("ok")) {
      problem = f.length > 4 ? f[4].strip() : "the proof script failed";
      if (problem.endsWith(";")) {
        problem = problem.substring(0, problem.length() - 1);
      }
    }
    return new Line(f[0], f[1], f[2].equals(NONE) ? null : f[2], problem, joined);
  }

  /**
   * One node as the proof expects it.
   *
   * @param hostname what {@code hostname} says there, or null when unknown
   * @param namespace the node's own mount namespace, or null when unknown
   * @param viaAgent whether a daemon starts there through the agent (every node but mpirun's own)
   * @param required whether a daemon must start there (Open MPI starts one on every hostfile node,
   *     unless the job's own mpirun arguments choose the hosts: {@link #chosenHosts})
   */
  public record Node(String hostname, String namespace, boolean viaAgent, boolean required) {
    /** A node where a daemon starts through the agent exactly when {@code viaAgent}. */
    public Node(String hostname, String namespace, boolean viaAgent) {
      this(hostname, namespace, viaAgent, viaAgent);
    }
  }

  /** mpirun options that name the hosts to use, followed by a list {@code NAME[:SLOTS],…}. */
  static final List<String> HOST_LIST_OPTIONS = List.of("--host", "-host", "-H");

  /** mpirun options that take the hosts from a file clusterrun does not read. */
  static final List<String> HOST_FILE_OPTIONS =
      List.of(
          "--hostfile",
          "-hostfile",
          "--machinefile",
          "-machinefile",
          "--default-hostfile",
          "--rankfile",
          "-rf",
          "--add-host",
          "--add-hostfile");

  /** An mpirun argument's option name: {@code --host=a,b} is {@code --host}. */
  static String optionWord(String arg) {
    int eq = arg.indexOf('=');
    return eq >= 0 ? arg.substring(0, eq) : arg;
  }

  /**
   * Which nodes get a daemon when the job's own mpirun arguments choose the hosts: the names of
   * {@code --host}/{@code -H} lists; no node at all (none can be required) when a host or rank file
   * of the job's own decides; {@code null} when the arguments choose nothing (every hostfile node).
   */
  public static Set<String> chosenHosts(List<String> mpiArgs) {
    Set<String> hosts = null;
    for (int i = 0; i < mpiArgs.size(); i++) {
      String a = mpiArgs.get(i);
      String word = optionWord(a);
      if (HOST_FILE_OPTIONS.contains(word)) {
        return Set.of();
      }
      if (HOST_LIST_OPTIONS.contains(word)) {
        String list = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
        if (list == null && i + 1 < mpiArgs.size()) {
          list = mpiArgs.get(++i);
        }
        if (hosts == null) {
          hosts = new LinkedHashSet<>();
        }
        for (String h : (list == null ? "" : list).split(",")) {
          int colon = h.indexOf(':');
          String name = (colon >= 0 ? h.substring(0, colon) : h).strip();
          if (!name.isEmpty()) {
            hosts.add(name);
          }
        }
      }
    }
    return hosts;
  }

  /**
   * What one node proved.
   *
   * @param node the hostfile name, or null for a line from a host clusterrun does not know
   * @param problem why it fails, or null when it proved itself
   * @param joined whether its daemon joined the container begun there during the checks
   */
  public record NodeProof(
      String node,
      String hostname,
      String mountNamespace,
      boolean proven,
      String problem,
      boolean joined) {}

  /** The state of the proof as lines come in: every node that must prove, and what it did. */
  public static final class Tally {
    private final Map<String, Node> nodes;
    private final String runId;
    private final Map<String, String> nodeOfHost = new LinkedHashMap<>();
    private final Map<String, NodeProof> proofs = new LinkedHashMap<>();
    private final List<NodeProof> bad = new ArrayList<>();
    private final Map<String, Integer> errors = new LinkedHashMap<>();

    /**
     * @param nodes every hostfile node in hostfile order
     */
    public Tally(Map<String, Node> nodes, String runId) {
      this.nodes = new LinkedHashMap<>(nodes);
      this.runId = runId;
      nodes.forEach(
          (n, e) -> {
            if (e.hostname() != null) {
              nodeOfHost.putIfAbsent(e.hostname(), n);
            }
          });
    }

    /** Takes one proof line into account. */
    public synchronized void add(Line l) {
      String node = nodeOfHost.get(l.hostname());
      String problem = l.problem();
      if (problem == null && !runId.equals(l.runId())) {
        problem = "the daemon proved another run (" + l.runId() + ")";
      }
      if (problem == null && node == null) {
        problem = "a daemon started on a host clusterrun does not know";
      }
      if (problem == null && !nodes.get(node).viaAgent()) {
        problem = "a daemon started on mpirun's own node";
      }
      if (problem == null && nodes.get(node).namespace() == null) {
        problem = "its own mount namespace is unknown (the node did not answer over SSH)";
      }
      if (problem == null && nodes.get(node).namespace().equals(l.mountNamespace())) {
        problem = "the daemon ran OUTSIDE the container, in the node's own mount namespace";
      }
      NodeProof p =
          new NodeProof(
              node, l.hostname(), l.mountNamespace(), problem == null, problem, l.joined());
      if (problem != null) {
        bad.add(p);
      }
      if (node != null) {
        proofs.putIfAbsent(node, p);
      }
    }

    /** Every node that starts a daemon through the agent has proved itself, and none failed. */
    public synchronized boolean proven() {
      return bad.isEmpty() && missing().isEmpty();
    }

    /** A line showed a problem: the run must stop. */
    public synchronized boolean failed() {
      return !bad.isEmpty();
    }

    /** Nodes whose daemon has left no line yet, in hostfile order. */
    public synchronized List<String> missing() {
      List<String> m = new ArrayList<>();
      nodes.forEach(
          (n, e) -> {
            if (e.viaAgent() && e.required() && !proofs.containsKey(n)) {
              m.add(n);
            }
          });
      return m;
    }

    /** What each node proved (hostfile order), then lines from hosts clusterrun does not know. */
    public synchronized List<NodeProof> proofs() {
      List<NodeProof> out = new ArrayList<>();
      for (String n : nodes.keySet()) {
        NodeProof p = proofs.get(n);
        if (p != null) {
          out.add(p);
        }
      }
      for (NodeProof p : bad) {
        if (p.node() == null) {
          out.add(p);
        }
      }
      return out;
    }

    /**
     * Takes one line of mpirun's standard error that is no proof line: an error a node's {@code
     * enroot start}, shell or ssh printed ({@code [ERROR] …}, {@code PROGRAM: …}) is kept, the
     * first {@link #ERRORS_KEPT} different ones with how often each came, to say why a daemon never
     * proved itself.
     */
    public synchronized void heard(String line) {
      String l = line.strip();
      if (!NODE_ERROR.matcher(l).find()) {
        return;
      }
      if (l.length() > 300) {
        l = l.substring(0, 300) + "…";
      }
      if (errors.containsKey(l) || errors.size() < ERRORS_KEPT) {
        errors.merge(l, 1, Integer::sum);
      }
    }

    /** Why the proof failed, node by node, for people; null when it did not. */
    public synchronized String failure(boolean ended) {
      List<String> parts = new ArrayList<>();
      for (NodeProof p : bad) {
        parts.add((p.node() != null ? p.node() : p.hostname()) + ": " + p.problem());
      }
      List<String> missing = ended ? missing() : List.of();
      if (!missing.isEmpty()) {
        parts.add(
            String.join(", ", missing)
                + ": no proof from "
                + (missing.size() == 1 ? "its daemon" : "their daemons")
                + whyMissing());
      }
      return parts.isEmpty() ? null : String.join("; ", parts);
    }

    /** Why daemons left no proof: what the nodes said, or, when they said nothing, the guess. */
    private String whyMissing() {
      if (errors.isEmpty()) {
        return ": another hook or setting replaces clusterrun's launch agent, or the daemon never"
            + " started, and no node said why (run `clusterrun check`, see launch-agent)";
      }
      List<String> said = new ArrayList<>();
      errors.forEach((l, n) -> said.add("`" + l + "`" + (n > 1 ? " (" + n + " times)" : "")));
      String text =
          "; what the nodes said on mpirun's standard error (which names no node): "
              + String.join(", ", said);
      if (errors.keySet().stream().anyMatch(l -> l.contains(ROOTFS_LOCK))) {
        text +=
            ". enroot could not acquire the container's rootfs lock: `enroot start` of a"
                + " container holds a lock in its rootfs (ROOTFS/.lock, 30 s at most) while it runs"
                + " the hooks, so nodes that start one rootfs on a shared data path wait for each"
                + " other, one hook time each. Fix: give the job a name (--container-name) or an"
                + " image so every node but the head starts a squashfs of its own (docs/scale.md),"
                + " or make the hooks faster";
      }
      return text;
    }
  }
}
