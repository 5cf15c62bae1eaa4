package dev.clusterrun.cli;

import dev.clusterrun.core.check.ParallelRunner;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.setup.DataPathProof;
import dev.clusterrun.core.setup.NodeOutcome;
import dev.clusterrun.core.setup.NodeSetup;
import dev.clusterrun.core.setup.SetupReport;
import dev.clusterrun.core.setup.SetupSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    mixinStandardHelpOptions = true,
    name = "setup",
    sortOptions = false,
    description = {
      "Install the enroot drop-in and the launch-agent hook on every node.",
      "Configures every node (and the head) for clusterrun, idempotently, as root directly or through"
          + " `sudo -n`: an enroot drop-in /etc/enroot/enroot.conf.d/50-clusterrun.conf (ENROOT_DATA_PATH,"
          + " ENROOT_MOUNT_HOME, a runtime path that works over non-interactive SSH) and the generic"
          + " launch-agent hook /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh. enroot.conf itself is"
          + " never edited. The data path must be proven shared first."
    })
final class SetupCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin NodesOption nodes;

  @Option(
      names = "--data-path",
      required = true,
      paramLabel = "DIR",
      description =
          "ENROOT_DATA_PATH: a directory on the shared filesystem, the same path on every node (not inside a home directory that enroot mounts).")
  String dataPath;

  @Option(
      names = "--runtime-path",
      paramLabel = "TEMPLATE",
      description = "ENROOT_RUNTIME_PATH, expanded per user by enroot (default: ${DEFAULT-VALUE}).")
  String runtimePath = SetupSpec.DEFAULT_RUNTIME_PATH;

  @Option(
      names = "--cache-path",
      paramLabel = "DIR",
      description = "ENROOT_CACHE_PATH (default: enroot's own).")
  String cachePath;

  @Option(
      names = "--no-container-mount-home",
      description =
          "Write ENROOT_MOUNT_HOME no: the nodes' setting for jobs that do not choose (run"
              + " --[no-]container-mount-home choose per job); without the home, ~/.ssh must reach"
              + " the container through a job mount.")
  boolean noMountHome;

  /** The old name of {@code --no-container-mount-home}, kept working, not shown. */
  @Option(names = "--no-mount-home", hidden = true)
  boolean noMountHomeOldName;

  @Option(
      names = "--force",
      description =
          "Replace files of the same name that clusterrun did not write (a backup is kept).")
  boolean force;

  @Option(
      names = "--dry-run",
      description = "Show what would change, as a diff, and change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Option(
      names = "--sysconf-dir",
      paramLabel = "DIR",
      description = "enroot's configuration directory (default ${DEFAULT-VALUE}).")
  String sysconfDir = SetupSpec.DEFAULT_SYSCONF_DIR;

  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    Hostfile hostfile = JobInput.hostfile(nodes.path);
    SetupSpec spec = spec();
    ClusterSession.Progress progress = ClusterSession.Progress.forTerminal(root.err);
    try (ClusterSession session = ClusterSession.open(hostfile, ssh.merge(null), progress)) {
      ExecutorService pool =
          Executors.newFixedThreadPool(
              Math.max(2, Math.min(session.fanout, session.shells.size())),
              r -> {
                Thread t = new Thread(r, "clusterrun-setup");
                t.setDaemon(true);
                return t;
              });
      try {
        ParallelRunner parallel = ParallelRunner.on(pool);
        DataPathProof proof = proveShared(session, parallel);
        NodeSetup setup = new NodeSetup(spec, proof);
        List<String> names = new ArrayList<>(session.shells.keySet());
        Map<String, NodeOutcome> done =
            parallel.map(
                names,
                n -> {
                  NodeShell s = session.shells.get(n);
                  return dryRun ? setup.dryRun(s) : setup.apply(s);
                },
                (n, e) ->
                    new NodeOutcome(
                        n, NodeOutcome.Status.FAILED, List.of(), "internal error: " + e));
        List<NodeOutcome> outcomes = new ArrayList<>();
        for (String n : hostfile.names()) {
          if (done.containsKey(n)) {
            outcomes.add(done.get(n));
          } else if (session.unreachable.containsKey(n)) {
            outcomes.add(
                new NodeOutcome(
                    n,
                    NodeOutcome.Status.FAILED,
                    List.of(),
                    "unreachable: " + session.unreachable.get(n)));
          }
        }
        if (!hostfile.names().contains(session.head) && done.containsKey(session.head)) {
          outcomes.add(0, done.get(session.head));
        }
        SetupReport report = new SetupReport(dryRun, outcomes);
        root.out.print(json ? report.json() : report.text());
        root.out.flush();
        return report.ok() ? ExitCodes.OK : ExitCodes.SETUP_FAILED;
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** What the options ask every node to be configured with. */
  SetupSpec spec() {
    boolean mountHome = !(noMountHome || noMountHomeOldName);
    return new SetupSpec(dataPath, mountHome, runtimePath, cachePath, force, sysconfDir);
  }

  /**
   * The head creates the data path (as the job user; on a shared filesystem that makes it appear
   * everywhere), then the sharing proof runs on exactly that path on every node.
   */
  private DataPathProof proveShared(ClusterSession session, ParallelRunner parallel) {
    Checking.SharedPath s = Checking.proveShared(session, dataPath, parallel);
    Map<String, String> problems = new LinkedHashMap<>();
    if (s.headProblem() != null) {
      String why = "the head could not create the data path " + dataPath + ": " + s.headProblem();
      session.shells.keySet().forEach(n -> problems.put(n, why));
    }
    s.notShared()
        .forEach(
            (n, d) -> problems.put(n, "data path " + dataPath + " is not proven shared: " + d));
    return DataPathProof.of(problems);
  }
}
