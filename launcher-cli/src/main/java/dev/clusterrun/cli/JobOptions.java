package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.JobInput;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SettingRules;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Pyxis-compatible container flags and the other job flags shared by {@code run}, {@code plan},
 * {@code hpl} and {@code bench}. Names and meanings follow Pyxis's {@code srun} options.
 */
final class JobOptions {
  @Option(
      names = "--container-image",
      paramLabel = "[USER@][REGISTRY#]IMAGE[:TAG]|PATH",
      description =
          "Image: an enroot URI or a path to a squashfs file. Env: CLUSTERRUN_CONTAINER_IMAGE.")
  String image;

  @Option(
      names = "--container-name",
      paramLabel = "NAME",
      description =
          "Name of the container; a named container is kept and reused, an unnamed one is removed after the job. Env: CLUSTERRUN_CONTAINER_NAME.")
  String name;

  @Option(
      names = "--container-mounts",
      paramLabel = "SRC[:DST[:FLAGS]][,SRC:DST...]",
      description =
          "Mounts, as Pyxis: SRC is an absolute path, ./DIR or ../DIR (from the current"
              + " directory), tmpfs or umount; a bare SRC is mounted at the same path; flags are"
              + " joined with '+', e.g. /data:/data:ro+rprivate. Env: CLUSTERRUN_CONTAINER_MOUNTS.")
  List<String> mounts;

  @Option(
      names = "--container-workdir",
      paramLabel = "PATH",
      description =
          "Working directory of the ranks inside the container. Env: CLUSTERRUN_CONTAINER_WORKDIR.")
  String workdir;

  @Option(names = "--container-writable", description = "Make the container filesystem writable.")
  boolean writable;

  @Option(
      names = "--container-readonly",
      description = "Make the container filesystem read-only (default).")
  boolean readonly;

  @Option(
      names = "--container-mount-home",
      description = "Bind mount the user's home directory (default).")
  boolean mountHome;

  @Option(
      names = "--no-container-mount-home",
      description = "Do not bind mount the user's home directory.")
  boolean noMountHome;

  @Option(
      names = "--container-remap-root",
      description = "Be remapped to root inside the container.")
  boolean remapRoot;

  @Option(
      names = "--no-container-remap-root",
      description = "Do not remap to root inside the container (default).")
  boolean noRemapRoot;

  @Option(
      names = "--container-entrypoint",
      description =
          "Run the image's entrypoint before the command (default, as enroot start does). Env:"
              + " CLUSTERRUN_CONTAINER_ENTRYPOINT.")
  boolean entrypoint;

  @Option(
      names = "--no-container-entrypoint",
      description =
          "Do not run the image's entrypoint: the command starts directly (Pyxis's default).")
  boolean noEntrypoint;

  @Option(
      names = "--container-save",
      paramLabel = "PATH",
      description =
          "Save the container to this squashfs file after the job (read-only or writable; a"
              + " relative PATH is from the current directory). Env: CLUSTERRUN_CONTAINER_SAVE.")
  String save;

  @Option(
      names = "--container-env",
      paramLabel = "NAME[,NAME...]",
      description =
          "Host variables passed into the container, overriding the image's, and forwarded to"
              + " every rank on every node; no other host variable crosses (unlike Pyxis). Env:"
              + " CLUSTERRUN_CONTAINER_ENV.")
  String envNames;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description =
          "Job directory on the shared filesystem (default ~/clusterrun). Env: CLUSTERRUN_WORKSPACE.")
  String workspace;

  @Option(
      names = "--workspace-mount",
      paramLabel = "PATH",
      description = "Where the workspace appears inside the container (default /workspace).")
  String workspaceMount;

  @Option(
      names = "--np",
      paramLabel = "N",
      description = "Total ranks (default: the hostfile's total slots).")
  Integer np;

  @Option(
      names = "--network",
      paramLabel = "auto|none|CIDR|IFACE",
      description =
          "The network Open MPI keeps to (btl_tcp_if_include, oob_tcp_if_include, NCCL_SOCKET_IFNAME):"
              + " auto (default: the one the hostfile's nodes are reached on, found on every node),"
              + " none (Open MPI's own choice), a network such as 10.0.0.0/24 or an interface name."
              + " Settings the job gives itself win.")
  String network;

  @Option(
      names = "--node-timeout",
      paramLabel = "DURATION",
      description =
          "Stop the job when a node stays silent this long while it runs (default 30s); Open MPI's"
              + " TCP keepalive is set to agree.")
  String nodeTimeout;

  @Option(
      names = "--no-hook",
      description =
          "Pass the launch agent with enroot start --env instead of the node hook (for nodes where `clusterrun setup` cannot install it).")
  boolean noHook;

  /**
   * What the person gave for the job: the hostfile, the job file and command ({@code words}), these
   * flags and the SSH flags as one layer, the environment.
   */
  JobInput input(Path hostfile, CommandWords words, SshOptions ssh, Map<String, String> env) {
    return new JobInput(
        hostfile,
        words.jobFile == null ? null : Path.of(words.jobFile),
        toLayer(words.command, ssh.toSpec()),
        env,
        Path.of("").toAbsolutePath());
  }

  /**
   * The flags as a job layer; each value checked by its one rule ({@link SettingRules}).
   *
   * @param ssh the SSH flags' settings, one more part of the same layer
   */
  JobSpec toLayer(List<String> command, SshSpec ssh) {
    ImageRef img =
        image == null
            ? null
            : BadInputException.about("--container-image", () -> SettingRules.image(image));
    if (name != null) {
      BadInputException.about("--container-name", () -> SettingRules.containerName(name));
    }
    List<Mount> ms = null;
    if (mounts != null) {
      ms = new ArrayList<>();
      for (String m : mounts) {
        ms.addAll(BadInputException.about("--container-mounts", () -> SettingRules.mountList(m)));
      }
    }
    if (workdir != null) {
      BadInputException.about("--container-workdir", () -> SettingRules.workdir(workdir));
    }
    if (save != null) {
      BadInputException.about("--container-save", () -> SettingRules.savePath(save));
    }
    List<String> names =
        envNames == null
            ? null
            : BadInputException.about("--container-env", () -> SettingRules.envNameList(envNames));
    if (workspace != null) {
      BadInputException.about("--workspace", () -> SettingRules.workspacePath(workspace));
    }
    if (workspaceMount != null) {
      BadInputException.about(
          "--workspace-mount", () -> SettingRules.workspaceMount(workspaceMount));
    }
    if (np != null) {
      BadInputException.about("--np", () -> SettingRules.np(np));
    }
    if (network != null) {
      BadInputException.about("--network", () -> SettingRules.network(network));
    }
    java.time.Duration timeout =
        nodeTimeout == null ? null : SshOptions.parseDuration("--node-timeout", nodeTimeout);
    ContainerSpec c =
        new ContainerSpec(
            img,
            name,
            ms,
            workdir,
            pair("--container-writable", writable, "--container-readonly", readonly),
            pair("--container-mount-home", mountHome, "--no-container-mount-home", noMountHome),
            pair("--container-remap-root", remapRoot, "--no-container-remap-root", noRemapRoot),
            null,
            names,
            save,
            pair("--container-entrypoint", entrypoint, "--no-container-entrypoint", noEntrypoint));
    return new JobSpec(
        null,
        c,
        new WorkspaceSpec(workspace, workspaceMount),
        new MpiSpec(np, null, null, null, null, null, network, timeout),
        command == null || command.isEmpty() ? null : List.copyOf(command),
        ssh,
        "flags");
  }

  private static Boolean pair(String yesName, boolean yes, String noName, boolean no) {
    if (yes && no) {
      throw new BadInputException(yesName, "contradicts " + noName + "; give only one of them");
    }
    return yes ? Boolean.TRUE : no ? Boolean.FALSE : null;
  }
}
