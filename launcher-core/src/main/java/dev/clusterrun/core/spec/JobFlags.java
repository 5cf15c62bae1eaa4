package dev.clusterrun.core.spec;

import dev.clusterrun.core.BadInputException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The job flags as given: the Pyxis-compatible {@code --container-*} flags, the workspace, {@code
 * --np}, {@code --network}, {@code --node-timeout}, {@code --launcher} and {@code
 * --image-cache-limit}; null or false where not given. {@link #toLayer} makes them the flags' layer
 * of the job, each value checked by its one rule ({@link SettingRules}).
 */
public record JobFlags(
    String image,
    String name,
    List<String> mounts,
    String workdir,
    Choice writable,
    Choice mountHome,
    Choice remapRoot,
    Choice entrypoint,
    String save,
    String envNames,
    String workspace,
    String workspaceMount,
    Integer np,
    String network,
    String nodeTimeout,
    String launcher,
    String imageCacheLimit,
    String time) {

  /**
   * A pair of flags that say yes and no ({@code --container-writable}/{@code
   * --container-readonly}): {@link #value} is null when neither is given.
   */
  public record Choice(String yesName, boolean yes, String noName, boolean no) {
    public Boolean value() {
      if (yes && no) {
        throw new BadInputException(yesName, "contradicts " + noName + "; give only one of them");
      }
      return yes ? Boolean.TRUE : no ? Boolean.FALSE : null;
    }
  }

  /**
   * The flags as a job layer.
   *
   * @param command the command words given after the flags (null or empty: none)
   * @param ssh the SSH flags' settings, one more part of the same layer
   */
  public JobSpec toLayer(List<String> command, SshSpec ssh) {
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
    ByteSize cacheLimit =
        imageCacheLimit == null
            ? null
            : BadInputException.about(
                "--image-cache-limit", () -> SettingRules.imageCacheLimit(imageCacheLimit));
    Duration timeout =
        nodeTimeout == null ? null : SshFlags.duration("--node-timeout", nodeTimeout);
    ContainerSpec c =
        new ContainerSpec(
            img,
            name,
            ms,
            workdir,
            writable.value(),
            mountHome.value(),
            remapRoot.value(),
            null,
            names,
            save,
            entrypoint.value());
    JobSpec layer =
        new JobSpec(
            null,
            c,
            new WorkspaceSpec(workspace, workspaceMount, cacheLimit),
            new MpiSpec(np, null, null, null, null, null, network, timeout),
            command == null || command.isEmpty() ? null : List.copyOf(command),
            ssh,
            "flags");
    if (time != null) {
      layer = layer.withTime(BadInputException.about("--time", () -> TimeLimit.parse(time)));
    }
    return launcher == null
        ? layer
        : layer.withLauncher(
            BadInputException.about("--launcher", () -> SettingRules.launcher(launcher)));
  }
}
