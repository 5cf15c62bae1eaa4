package dev.clusterrun.cli;

import dev.clusterrun.core.setup.SetupFlow;
import dev.clusterrun.core.setup.SetupOutcome;
import dev.clusterrun.core.setup.SetupReport;
import dev.clusterrun.core.setup.SetupRequest;
import dev.clusterrun.core.setup.SetupSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "setup")
final class SetupCommand extends BaseCommand {
  @Mixin NodesOption nodes;

  @Option(names = "--data-path", required = true, paramLabel = "DIR")
  String dataPath;

  @Option(names = "--runtime-path", paramLabel = "TEMPLATE")
  String runtimePath = SetupSpec.DEFAULT_RUNTIME_PATH;

  @Option(names = "--cache-path", paramLabel = "DIR")
  String cachePath;

  @Mixin NoMountHomeOption noMountHome;

  /** The old name of {@code --no-container-mount-home}, kept working, not shown. */
  @Option(names = "--no-mount-home", hidden = true)
  boolean noMountHomeOldName;

  @Option(names = "--force")
  boolean force;

  @Mixin DryRunOption dryRun;

  @Mixin JsonOption json;

  @Option(names = "--sysconf-dir", paramLabel = "DIR")
  String sysconfDir = SetupSpec.DEFAULT_SYSCONF_DIR;

  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws InterruptedException {
    SetupOutcome outcome =
        SetupFlow.run(
            new SetupRequest(nodes.read(root().env), ssh.settings(), spec(), dryRun.on),
            root().console().progress());
    SetupReport report = outcome.report();
    print(json.on ? report.json() : report.text());
    return outcome.exitCode();
  }

  /** What the options ask every node to be configured with. */
  SetupSpec spec() {
    boolean mountHome = !(noMountHome.on || noMountHomeOldName);
    return new SetupSpec(dataPath, mountHome, runtimePath, cachePath, force, sysconfDir);
  }
}
