package dev.clusterrun.cli;

import dev.clusterrun.core.setup.SetupFlow;
import dev.clusterrun.core.setup.SetupOutcome;
import dev.clusterrun.core.setup.SetupReport;
import dev.clusterrun.core.setup.SetupRequest;
import dev.clusterrun.core.setup.SetupSpec;
import java.util.concurrent.Callable;
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
    SetupOutcome outcome =
        SetupFlow.run(
            new SetupRequest(nodes.read(), ssh.toSpec(), spec(), dryRun),
            root.console().progress());
    SetupReport report = outcome.report();
    root.out.print(json ? report.json() : report.text());
    root.out.flush();
    return outcome.exitCode();
  }

  /** What the options ask every node to be configured with. */
  SetupSpec spec() {
    boolean mountHome = !(noMountHome || noMountHomeOldName);
    return new SetupSpec(dataPath, mountHome, runtimePath, cachePath, force, sysconfDir);
  }
}
