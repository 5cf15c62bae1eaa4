package dev.clusterrun.core.launch;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.ContainerName;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code CLUSTERRUN_CONTAINER_*} environment variables as a job layer, mirroring Pyxis's {@code
 * PYXIS_CONTAINER_*}. Errors name the variable.
 */
public final class EnvironmentLayer {
  public static final String IMAGE = "CLUSTERRUN_CONTAINER_IMAGE";
  public static final String NAME = "CLUSTERRUN_CONTAINER_NAME";
  public static final String MOUNTS = "CLUSTERRUN_CONTAINER_MOUNTS";
  public static final String WORKDIR = "CLUSTERRUN_CONTAINER_WORKDIR";
  public static final String WRITABLE = "CLUSTERRUN_CONTAINER_WRITABLE";
  public static final String READONLY = "CLUSTERRUN_CONTAINER_READONLY";
  public static final String MOUNT_HOME = "CLUSTERRUN_CONTAINER_MOUNT_HOME";
  public static final String REMAP_ROOT = "CLUSTERRUN_CONTAINER_REMAP_ROOT";
  public static final String SAVE = "CLUSTERRUN_CONTAINER_SAVE";
  public static final String ENV = "CLUSTERRUN_CONTAINER_ENV";
  public static final String WORKSPACE = "CLUSTERRUN_WORKSPACE";

  /** Every variable this layer reads, for documentation and tests. */
  public static final List<String> ALL =
      List.of(
          IMAGE,
          NAME,
          MOUNTS,
          WORKDIR,
          WRITABLE,
          READONLY,
          MOUNT_HOME,
          REMAP_ROOT,
          SAVE,
          ENV,
          WORKSPACE);

  private EnvironmentLayer() {}

  public static JobSpec read(Map<String, String> env) {
    ImageRef image = null;
    String v = env.get(IMAGE);
    if (v != null) {
      image = BadInputException.about(IMAGE, () -> ImageRef.parse(v));
    }
    String name = env.get(NAME);
    if (name != null) {
      BadInputException.about(NAME, () -> ContainerName.validate(name));
    }
    List<Mount> mounts = null;
    if (env.get(MOUNTS) != null) {
      mounts = parseMountList(MOUNTS, env.get(MOUNTS));
    }
    String workdir = env.get(WORKDIR);
    if (workdir != null) {
      requireAbsolute(WORKDIR, workdir);
    }
    Boolean writable = bool(env, WRITABLE);
    Boolean readonly = bool(env, READONLY);
    if (writable != null && readonly != null && writable == readonly) {
      throw new BadInputException(
          WRITABLE + " and " + READONLY, "contradict each other; set only one of them");
    }
    if (writable == null && readonly != null) {
      writable = !readonly;
    }
    Boolean mountHome = bool(env, MOUNT_HOME);
    Boolean remapRoot = bool(env, REMAP_ROOT);
    String save = env.get(SAVE);
    if (save != null) {
      requireSavePath(SAVE, save);
    }
    List<String> envNames = null;
    if (env.get(ENV) != null) {
      envNames = parseNameList(ENV, env.get(ENV));
    }
    String ws = env.get(WORKSPACE);
    if (ws != null) {
      requireAbsolute(WORKSPACE, ws);
    }
    ContainerSpec c =
        new ContainerSpec(
            image, name, mounts, workdir, writable, mountHome, remapRoot, null, envNames, save);
    return new JobSpec(
        null, c, new WorkspaceSpec(ws, null), MpiSpec.EMPTY, null, SshSpec.EMPTY, "environment");
  }

  /** Pyxis's {@code SRC:DST[:FLAGS][,SRC:DST...]}, flags joined with {@code +}. */
  public static List<Mount> parseMountList(String subject, String text) {
    if (text.isEmpty()) {
      throw new BadInputException(subject, "argument required: SRC:DST[:FLAGS][,SRC:DST...]");
    }
    List<Mount> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      out.add(BadInputException.about(subject, () -> Mount.parse(part)));
    }
    return out;
  }

  /** Pyxis's {@code NAME[,NAME...]}. */
  public static List<String> parseNameList(String subject, String text) {
    List<String> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      if (!isEnvName(part)) {
        throw new BadInputException(
            subject,
            "invalid variable name '" + part + "' in '" + text + "'; expected NAME[,NAME...]");
      }
      out.add(part);
    }
    return out;
  }

  public static boolean isEnvName(String s) {
    if (s == null || s.isEmpty() || Character.isDigit(s.charAt(0))) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c == '_'
          || (c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9'))) {
        return false;
      }
    }
    return true;
  }

  public static void requireAbsolute(String subject, String path) {
    if (path.isEmpty()) {
      throw new BadInputException(subject, "argument required: an absolute path");
    }
    if (!path.startsWith("/")) {
      throw new BadInputException(subject, "'" + path + "' is not an absolute path");
    }
  }

  public static void requireSavePath(String subject, String path) {
    if (path.isEmpty()) {
      throw new BadInputException(subject, "argument required: a squashfs file path");
    }
    if (path.endsWith("/")) {
      throw new BadInputException(subject, "'" + path + "' is a directory; give a file path");
    }
  }

  private static Boolean bool(Map<String, String> env, String key) {
    String v = env.get(key);
    if (v == null) {
      return null;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "1", "true", "yes", "y", "on":
        return true;
      case "0", "false", "no", "n", "off":
        return false;
      default:
        throw new BadInputException(
            key, "'" + v + "' is not a boolean; use 1 or 0 (or true/false)");
    }
  }
}
