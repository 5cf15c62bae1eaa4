package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.JobWords;
import dev.clusterrun.core.spec.JobFlags;
import dev.clusterrun.core.spec.JobFlags.Choice;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Pyxis-compatible container flags and the other job flags shared by {@code run}, {@code plan},
 * {@code hpl} and {@code bench}. Names and meanings follow Pyxis's {@code srun} options.
 */
final class JobOptions {
  @Option(names = "--container-image", paramLabel = "[USER@][REGISTRY#]IMAGE[:TAG]|PATH")
  String image;

  @Option(names = "--container-name", paramLabel = "NAME")
  String name;

  @Option(names = "--container-mounts", paramLabel = "SRC[:DST[:FLAGS]][,SRC:DST...]")
  List<String> mounts;

  @Option(names = "--container-workdir", paramLabel = "PATH")
  String workdir;

  @Option(names = "--container-writable")
  boolean writable;

  @Option(names = "--container-readonly")
  boolean readonly;

  @Option(names = "--container-mount-home")
  boolean mountHome;

  @Mixin NoMountHomeOption noMountHome;

  @Option(names = "--container-remap-root")
  boolean remapRoot;

  @Option(names = "--no-container-remap-root")
  boolean noRemapRoot;

  @Option(names = "--container-entrypoint")
  boolean entrypoint;

  @Option(names = "--no-container-entrypoint")
  boolean noEntrypoint;

  @Option(names = "--container-save", paramLabel = "PATH")
  String save;

  @Option(names = "--container-env", paramLabel = "NAME[,NAME...]")
  String envNames;

  @Option(names = "--workspace", paramLabel = "DIR", descriptionKey = "job.workspace")
  String workspace;

  @Option(names = "--workspace-mount", paramLabel = "PATH")
  String workspaceMount;

  @Option(names = "--image-cache-limit", paramLabel = "SIZE")
  String imageCacheLimit;

  @Option(names = "--np", paramLabel = "N")
  Integer np;

  @Option(names = "--network", paramLabel = "auto|none|CIDR|IFACE")
  String network;

  @Option(names = "--node-timeout", paramLabel = "DURATION")
  String nodeTimeout;

  @Option(
      names = {"-t", "--time"},
      paramLabel = "DURATION")
  String time;

  @Option(names = "--no-hook")
  boolean noHook;

  /**
   * What the person gave for the job: the nodes, the job file and command ({@code words}), these
   * flags, {@code --launcher} (null: not given or not an option) and the SSH flags as one layer,
   * the environment.
   */
  JobInput input(
      NodesOption nodes, JobWords words, SshOptions ssh, Map<String, String> env, String launcher) {
    return JobInput.of(
        nodes.selection(), words, flags(launcher), ssh.flags(), env, Path.of("").toAbsolutePath());
  }

  private JobFlags flags(String launcher) {
    return new JobFlags(
        image,
        name,
        mounts,
        workdir,
        new Choice("--container-writable", writable, "--container-readonly", readonly),
        new Choice(
            "--container-mount-home", mountHome, "--no-container-mount-home", noMountHome.on),
        new Choice("--container-remap-root", remapRoot, "--no-container-remap-root", noRemapRoot),
        new Choice("--container-entrypoint", entrypoint, "--no-container-entrypoint", noEntrypoint),
        save,
        envNames,
        workspace,
        workspaceMount,
        np,
        network,
        nodeTimeout,
        launcher,
        imageCacheLimit,
        time);
  }
}
