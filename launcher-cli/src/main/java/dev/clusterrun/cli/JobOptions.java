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

  @Option(names = "--no-container-mount-home", descriptionKey = "job.no-container-mount-home")
  boolean noMountHome;

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

  @Option(names = "--np", paramLabel = "N")
  Integer np;

  @Option(names = "--network", paramLabel = "auto|none|CIDR|IFACE")
  String network;

  @Option(names = "--node-timeout", paramLabel = "DURATION")
  String nodeTimeout;

  @Option(names = "--no-hook")
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
