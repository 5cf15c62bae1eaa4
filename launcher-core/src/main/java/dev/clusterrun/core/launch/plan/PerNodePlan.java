package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Setting;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure: what {@code --launcher=per-node} starts on each node. The command once per node of the
 * hostfile, inside the job's container there ({@code env ENROOT_*=… CLUSTERRUN_RUN_ID=ID enroot
 * start FLAGS --env VAR=VALUE… NAME CMD}), with torchrun's {@code PET_*} variables, the common
 * {@code MASTER_ADDR}/{@code MASTER_PORT}/{@code NODE_RANK}/{@code NNODES} and clusterrun's own.
 * The rendezvous address is the first host of the hostfile, as the hostfile names it; its port is
 * picked on that node at launch ({@link #portScript}), so the plan shows it as {@link
 * #PORT_AT_LAUNCH}.
 */
public final class PerNodePlan {
  /** The master port's value in a plan made before the port was picked. */
  public static final String PORT_AT_LAUNCH = "<picked-at-launch>";

  /** Ports tried for the rendezvous: torchrun's default 29500 and the 500 after it. */
  static final int FIRST_PORT = 29500;

  static final int PORTS = 500;

  private PerNodePlan() {}

  /**
   * One node's start.
   *
   * @param node the node as the hostfile names it
   * @param rank its place in the hostfile, from 0
   * @param slots its slots (torchrun's processes per node)
   * @param variables what its process gets, in the order {@code plan} shows them
   * @param argv the words run on the node (quoted once with {@code ShellQuote} at the SSH boundary)
   * @param stdoutLog, stderrLog where its output is kept (host paths in the run directory)
   */
  public record NodeStart(
      String node,
      int rank,
      int slots,
      Map<String, String> variables,
      List<String> argv,
      String stdoutLog,
      String stderrLog) {
    /**
     * This start with the rendezvous port picked: its value in the variables and in the {@code
     * --env} words that pass them, where the start was planned with {@link #PORT_AT_LAUNCH}.
     */
    public NodeStart withPort(int port) {
      String p = Integer.toString(port);
      Map<String, String> v = new LinkedHashMap<>(variables);
      for (String k : PORT_VARIABLES) {
        v.replace(k, PORT_AT_LAUNCH, p);
      }
      // The variables' --env words are one block in the start: found whole, replaced whole.
      List<String> words = new ArrayList<>(argv);
      List<String> before = envWords(variables);
      int at = Collections.indexOfSubList(words, before);
      if (at >= 0) {
        words.subList(at, at + before.size()).clear();
        words.addAll(at, envWords(v));
      }
      return new NodeStart(node, rank, slots, v, List.copyOf(words), stdoutLog, stderrLog);
    }
  }

  /** {@code --env NAME=VALUE} for each variable, in order. */
  private static List<String> envWords(Map<String, String> vars) {
    List<String> w = new ArrayList<>();
    vars.forEach((k, v) -> w.addAll(List.of("--env", k + "=" + v)));
    return w;
  }

  /** The variables that carry the rendezvous port. */
  private static final List<String> PORT_VARIABLES = List.of("PET_MASTER_PORT", "MASTER_PORT");

  /**
   * The variables of the node of rank {@code rank}.
   *
   * @param port the rendezvous port, or null when not picked yet
   */
  public static Map<String, String> variables(
      Hostfile hostfile, int rank, Integer port, String runId) {
    List<Host> hosts = hostfile.hosts();
    String n = Integer.toString(hosts.size());
    String r = Integer.toString(rank);
    String addr = hosts.get(0).name();
    String p = port == null ? PORT_AT_LAUNCH : port.toString();
    Map<String, String> v = new LinkedHashMap<>();
    v.put("PET_NNODES", n);
    v.put("PET_NODE_RANK", r);
    v.put("PET_NPROC_PER_NODE", Integer.toString(hosts.get(rank).slots()));
    v.put("PET_MASTER_ADDR", addr);
    v.put("PET_MASTER_PORT", p);
    v.put("MASTER_ADDR", addr);
    v.put("MASTER_PORT", p);
    v.put("NODE_RANK", r);
    v.put("NNODES", n);
    v.put("CLUSTERRUN_NODE_RANK", r);
    v.put("CLUSTERRUN_NNODES", n);
    v.put("CLUSTERRUN_NODELIST", String.join(",", hostfile.names()));
    v.put(LaunchAgent.RUN_ID_VAR, runId);
    return v;
  }

  /**
   * What every node starts: the container and the command.
   *
   * @param name the container's name
   * @param flags the job's container flags, as the mpirun path gives them to {@code enroot start}
   * @param mountHome {@code container.mount-home}, null for each node's enroot configuration
   * @param fromHost {@code container.env-from-host}: passed with {@code --env NAME}, the value is
   *     the head's (put in the node's {@code env} at launch)
   * @param workdir the command's working directory in the container, or null
   * @param othersName what every node but the first starts: the named container's snapshot, so no
   *     two nodes start one rootfs and wait on its lock (docs/scale.md); the first node starts the
   *     container itself
   */
  public record Start(
      String name,
      EnrootArgs.ContainerFlags flags,
      Boolean mountHome,
      List<String> fromHost,
      String workdir,
      List<String> command,
      String othersName) {}

  /**
   * Every node's start, in hostfile order.
   *
   * @param port the rendezvous port, or null when not picked yet
   */
  public static List<NodeStart> nodes(
      Hostfile hostfile, String runId, String runDir, Start start, Integer port) {
    String containerName = start.name();
    EnrootArgs.ContainerFlags flags = start.flags();
    Boolean mountHome = start.mountHome();
    List<String> fromHost = start.fromHost();
    String workdir = start.workdir();
    List<String> command = start.command();
    List<NodeStart> out = new ArrayList<>();
    for (int rank = 0; rank < hostfile.hosts().size(); rank++) {
      Host h = hostfile.hosts().get(rank);
      Map<String, String> vars = variables(hostfile, rank, port, runId);
      List<String> envFlags = new ArrayList<>();
      vars.forEach((k, v) -> envFlags.add(k + "=" + v));
      envFlags.addAll(fromHost);
      List<String> argv = new ArrayList<>(List.of("env"));
      LaunchAgent.enrootEnvironment(flags, mountHome).forEach((k, v) -> argv.add(k + "=" + v));
      argv.add(LaunchAgent.RUN_ID_VAR + "=" + runId);
      argv.addAll(
          EnrootArgs.start(
              flags,
              envFlags,
              rank == 0 ? containerName : start.othersName(),
              inDir(workdir, command)));
      out.add(
          new NodeStart(
              h.name(),
              rank,
              h.slots(),
              vars,
              List.copyOf(argv),
              runDir + "/" + h.name() + ".stdout.log",
              runDir + "/" + h.name() + ".stderr.log"));
    }
    return List.copyOf(out);
  }

  /** The command, started in {@code workdir} when one is given (enroot start has no such flag). */
  static List<String> inDir(String workdir, List<String> command) {
    if (workdir == null) {
      return command;
    }
    List<String> w =
        new ArrayList<>(
            List.of(
                "sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "clusterrun-workdir", workdir));
    w.addAll(command);
    return w;
  }

  /**
   * What only applies to mpirun is refused with per-node: the ranks and their mapping, Open MPI's
   * settings, the mpirun hostfile, the daemon and the canary (an mpirun of the job's shape). {@code
   * --no-canary} and {@code --no-hook} are accepted and change nothing.
   *
   * @throws BadInputException naming every such setting given
   */
  public static void refuseMpiSettings(
      ResolvedJob job, LaunchOptions options, int nodes, int fanout) {
    List<String> given = new ArrayList<>();
    Map<String, Setting<?>> byKey = job.byKey();
    for (String key : List.of("mpi.np", "mpi.per-node", "mpi.mca", "mpi.env", "mpi.args")) {
      Setting<?> s = byKey.get(key);
      if (s.source() == Source.FLAG
          || s.source() == Source.ENVIRONMENT
          || s.source() == Source.FILE) {
        given.add(JobResolver.subject(s, key));
      }
    }
    if (job.hostfile().source() != Source.DEFAULT) {
      given.add(JobResolver.subject(job.hostfile(), "mpi.hostfile"));
    }
    if (options.daemon() != LaunchOptions.Daemon.AUTO) {
      given.add("--mpi-daemon");
    }
    if (options.canary() == CanaryMode.ONLY) {
      given.add("--canary");
    }
    String subject = JobResolver.subject(job.launcher(), "launcher");
    if (!given.isEmpty()) {
      throw new BadInputException(
          String.join(", ", given),
          (given.size() == 1 ? "applies" : "apply")
              + " to the mpirun launcher only, not to per-node ("
              + subject
              + "); per-node starts the command once on every node of the hostfile");
    }
    if (fanout < nodes) {
      Setting<Integer> f = job.ssh().fanout();
      throw new BadInputException(
          f.source() == Source.FLAG ? "--fanout" : JobResolver.subject(f, "ssh.fanout"),
          fanout
              + " is less than the "
              + nodes
              + " nodes that per-node starts at once; give at least "
              + nodes);
    }
  }

  /**
   * A POSIX shell script that prints one TCP port nobody has bound on the node, from {@link
   * #FIRST_PORT} on, starting at a random offset so two runs at once rarely pick the same.
   */
  public static String portScript() {
    return FREE_PORT.with(List.of(Integer.toString(FIRST_PORT), Integer.toString(PORTS)));
  }

  /** The port script's text: {@code free-port.sh} beside this class. */
  private static final ShellScript FREE_PORT = ShellScript.load(PerNodePlan.class, "free-port.sh");

  /** The port {@link #portScript} printed, or null. */
  public static Integer parsePort(String stdout) {
    for (String line : stdout.split("\n")) {
      if (line.startsWith("port ")) {
        try {
          int p = Integer.parseInt(line.substring(5).strip());
          return p > 0 && p < 65536 ? p : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }
}
