package dev.clusterrun.core.setup;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.PathTemplate;

/**
 * What {@code clusterrun setup} should configure on every node.
 *
 * <p>Each path is a {@link PathTemplate}: a literal path (written quoted, never expanded) or a
 * per-user template such as {@code /shared/enroot/$(id -u)} (written as given; enroot expands it
 * for each user). Any other expansion is refused here, as bad input naming the flag.
 *
 * @param dataPath ENROOT_DATA_PATH: on storage shared by all nodes (per user when a template)
 * @param mountHome ENROOT_MOUNT_HOME: mount the user's home (and so {@code ~/.ssh}) in containers
 * @param runtimePathTemplate ENROOT_RUNTIME_PATH: node-local; besides the per-user forms it may
 *     follow the session's XDG_RUNTIME_DIR, as {@code ${XDG_RUNTIME_DIR:-FALLBACK}}
 * @param cachePath ENROOT_CACHE_PATH, or {@code null} to leave enroot's default
 * @param force replace a file at our path that clusterrun did not write (a backup is kept)
 * @param sysconfDir enroot's sysconf dir, {@code /etc/enroot} unless enroot was built otherwise
 */
public record SetupSpec(
    String dataPath,
    boolean mountHome,
    String runtimePathTemplate,
    String cachePath,
    boolean force,
    String sysconfDir) {

  public static final String DEFAULT_SYSCONF_DIR = "/etc/enroot";

  /**
   * The XDG runtime dir when the session has one; otherwise a per-uid directory under /tmp, since
   * non-interactive SSH sessions have none and enroot's fallback {@code /run/enroot} is not
   * creatable by users.
   */
  public static final String DEFAULT_RUNTIME_PATH =
      "${XDG_RUNTIME_DIR:-/tmp/enroot-runtime-$(id -u)}/enroot";

  public SetupSpec {
    sysconfDir = sysconfDir == null ? DEFAULT_SYSCONF_DIR : stripTrailingSlashes(sysconfDir);
    runtimePathTemplate = runtimePathTemplate == null ? DEFAULT_RUNTIME_PATH : runtimePathTemplate;
    PathTemplate.parse("--data-path", dataPath, PathTemplate.Kind.STORAGE);
    if (cachePath != null) {
      PathTemplate.parse("--cache-path", cachePath, PathTemplate.Kind.STORAGE);
    }
    requireAbsolute("--sysconf-dir", sysconfDir);
    PathTemplate.parse("--runtime-path", runtimePathTemplate, PathTemplate.Kind.RUNTIME);
  }

  /** The data path as read: literal, or per user. */
  public PathTemplate dataPathTemplate() {
    return PathTemplate.parse("--data-path", dataPath, PathTemplate.Kind.STORAGE);
  }

  /** The runtime path as read. */
  public PathTemplate runtimePath() {
    return PathTemplate.parse("--runtime-path", runtimePathTemplate, PathTemplate.Kind.RUNTIME);
  }

  /** The cache path as read, or null when enroot's default is kept. */
  public PathTemplate cachePathTemplate() {
    return cachePath == null
        ? null
        : PathTemplate.parse("--cache-path", cachePath, PathTemplate.Kind.STORAGE);
  }

  /** Defaults for everything but the data path: mount home, per-user runtime path, no force. */
  public static SetupSpec of(String dataPath) {
    return new SetupSpec(dataPath, true, null, null, false, null);
  }

  public SetupSpec withForce(boolean force) {
    return new SetupSpec(dataPath, mountHome, runtimePathTemplate, cachePath, force, sysconfDir);
  }

  public SetupSpec withSysconfDir(String sysconfDir) {
    return new SetupSpec(dataPath, mountHome, runtimePathTemplate, cachePath, force, sysconfDir);
  }

  private static void requireAbsolute(String subject, String path) {
    if (path == null || path.isEmpty()) {
      throw new BadInputException(subject, "a path is required");
    }
    if (!path.startsWith("/")) {
      throw new BadInputException(subject, "must be an absolute path, got '" + path + "'");
    }
    requireOneLine(subject, path);
  }

  private static void requireOneLine(String subject, String value) {
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new BadInputException(
            subject, "must not contain control characters such as newlines or tabs");
      }
    }
  }

  private static String stripTrailingSlashes(String path) {
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }
}
