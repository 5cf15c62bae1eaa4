package dev.clusterrun.core.enroot;

import java.util.List;
import java.util.Map;

/**
 * enroot's effective configuration for one user on one node, computed the way enroot computes it:
 * the documented defaults (from the XDG variables, {@code /run} when {@code XDG_RUNTIME_DIR} is
 * unset as in a non-interactive SSH session), then {@code enroot.conf}, then {@code
 * enroot.conf.d/*.conf} in shell glob order (a later line wins), then the environment over all of
 * them; file values are shell-expanded as the user, and {@code no}/{@code false}/{@code n} unset a
 * setting.
 *
 * <p>Gathered on the node by {@link dev.clusterrun.core.check.FactScript}; this is only the value.
 */
public record EnrootConfig(
    EnrootConfigValue runtimePath,
    EnrootConfigValue cachePath,
    EnrootConfigValue dataPath,
    EnrootConfigValue configPath,
    EnrootConfigValue tempPath,
    EnrootConfigValue mountHome,
    EnrootConfigValue allowHttp) {

  /** The settings clusterrun computes, in the order the fact script evaluates them. */
  public static final List<String> NAMES =
      List.of(
          "ENROOT_RUNTIME_PATH",
          "ENROOT_CONFIG_PATH",
          "ENROOT_CACHE_PATH",
          "ENROOT_DATA_PATH",
          "ENROOT_TEMP_PATH",
          "ENROOT_MOUNT_HOME",
          "ENROOT_ALLOW_HTTP");

  /** Builds the record from values keyed by setting name; missing ones are unknown/unset. */
  public static EnrootConfig of(Map<String, EnrootConfigValue> byName) {
    return new EnrootConfig(
        get(byName, "ENROOT_RUNTIME_PATH"),
        get(byName, "ENROOT_CACHE_PATH"),
        get(byName, "ENROOT_DATA_PATH"),
        get(byName, "ENROOT_CONFIG_PATH"),
        get(byName, "ENROOT_TEMP_PATH"),
        get(byName, "ENROOT_MOUNT_HOME"),
        get(byName, "ENROOT_ALLOW_HTTP"));
  }

  private static EnrootConfigValue get(Map<String, EnrootConfigValue> m, String name) {
    EnrootConfigValue v = m.get(name);
    return v != null ? v : new EnrootConfigValue(name, null, "", "", null);
  }

  /** Whether enroot mounts the user's home (any non-empty value not meaning "no"). */
  public boolean mountHomeOn() {
    return mountHome.isSet();
  }

  public List<EnrootConfigValue> all() {
    return List.of(runtimePath, configPath, cachePath, dataPath, tempPath, mountHome, allowHttp);
  }
}
