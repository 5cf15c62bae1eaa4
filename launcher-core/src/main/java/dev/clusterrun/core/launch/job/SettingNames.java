package dev.clusterrun.core.launch.job;

import java.util.Map;

/** For each job-file key that a flag or a variable can set: the flag's and the variable's name. */
public final class SettingNames {
  public record Names(String flag, String variable) {}

  public static final Map<String, Names> BY_KEY =
      Map.ofEntries(
          Map.entry("launcher", new Names("--launcher", null)),
          Map.entry("time", new Names("--time", EnvironmentLayer.TIME)),
          Map.entry("container.image", new Names("--container-image", EnvironmentLayer.IMAGE)),
          Map.entry("container.name", new Names("--container-name", EnvironmentLayer.NAME)),
          Map.entry("container.mounts", new Names("--container-mounts", EnvironmentLayer.MOUNTS)),
          Map.entry(
              "container.workdir", new Names("--container-workdir", EnvironmentLayer.WORKDIR)),
          Map.entry(
              "container.writable",
              new Names(
                  "--container-writable/--container-readonly",
                  EnvironmentLayer.WRITABLE + "/" + EnvironmentLayer.READONLY)),
          Map.entry(
              "container.mount-home",
              new Names("--[no-]container-mount-home", EnvironmentLayer.MOUNT_HOME)),
          Map.entry(
              "container.remap-root",
              new Names("--[no-]container-remap-root", EnvironmentLayer.REMAP_ROOT)),
          Map.entry("container.save", new Names("--container-save", EnvironmentLayer.SAVE)),
          Map.entry(
              "container.entrypoint",
              new Names("--[no-]container-entrypoint", EnvironmentLayer.ENTRYPOINT)),
          Map.entry("container.env-from-host", new Names("--container-env", EnvironmentLayer.ENV)),
          Map.entry("workspace.path", new Names("--workspace", EnvironmentLayer.WORKSPACE)),
          Map.entry("workspace.mount", new Names("--workspace-mount", null)),
          Map.entry(
              "workspace.image-cache-limit",
              new Names("--image-cache-limit", EnvironmentLayer.IMAGE_CACHE_LIMIT)),
          Map.entry("mpi.np", new Names("--np", null)),
          Map.entry("mpi.network", new Names("--network", null)),
          Map.entry("mpi.node-timeout", new Names("--node-timeout", null)),
          Map.entry("command", new Names("CMD ARGS", null)));

  private SettingNames() {}

  /**
   * How {@code plan} names where a value came from: the flag, the variable (from {@code variables},
   * the layer's own record of which variable set which key, when it has one), or {@code fallback}
   * (the file).
   */
  static String origin(String key, Source source, String fallback, Map<String, String> variables) {
    if (source == Source.ENVIRONMENT && variables != null && variables.containsKey(key)) {
      return variables.get(key);
    }
    return origin(key, source, fallback);
  }

  static String origin(String key, Source source, String fallback) {
    Names n = BY_KEY.get(key);
    if (n == null) {
      return fallback;
    }
    if (source == Source.FLAG && n.flag() != null) {
      return n.flag();
    }
    if (source == Source.ENVIRONMENT && n.variable() != null) {
      return n.variable();
    }
    return fallback;
  }
}
