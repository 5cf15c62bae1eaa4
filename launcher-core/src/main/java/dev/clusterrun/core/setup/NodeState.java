package dev.clusterrun.core.setup;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of a node's enroot configuration, parsed from the {@code key=value} lines the setup
 * script prints after its {@value #MARKER} line.
 *
 * @param uid the uid the script ran as (0 when it ran as root)
 * @param dirs for each directory setup needs: {@code dir}, {@code missing} or {@code other}
 * @param files for each file setup manages, by path
 * @param sysconfId the sysconf dir's {@code device:inode}, or null when unknown: nodes that show
 *     the same one share it (diskless nodes, an NFS root)
 */
public record NodeState(
    int uid, Map<String, DirKind> dirs, Map<String, FileState> files, String sysconfId) {

  /** The line the setup script prints before its state lines. */
  public static final String MARKER = "clusterrun-setup-state";

  public enum DirKind {
    DIR,
    MISSING,
    OTHER
  }

  public NodeState {
    dirs = Map.copyOf(dirs);
    files = Map.copyOf(files);
  }

  public DirKind dir(String path) {
    return dirs.getOrDefault(path, DirKind.MISSING);
  }

  public FileState file(String path) {
    return files.getOrDefault(path, FileState.missing(path));
  }

  /**
   * Parses the lines after the last {@value #MARKER} in {@code output}; {@code dirPaths} and {@code
   * filePaths} give the paths in the order the script probed them ({@code dir.0}, {@code file.0},
   * ...).
   *
   * @throws IllegalArgumentException when the output has no state or misses a probe
   */
  public static NodeState parse(String output, List<String> dirPaths, List<String> filePaths) {
    int at = output.lastIndexOf(MARKER + "\n");
    if (at < 0 || (at > 0 && output.charAt(at - 1) != '\n')) {
      throw new IllegalArgumentException("no " + MARKER + " line in the script's output");
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (String line : output.substring(at + MARKER.length() + 1).split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        kv.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    int uid = Integer.parseInt(require(kv, "uid"));
    Map<String, DirKind> dirs = new LinkedHashMap<>();
    for (int i = 0; i < dirPaths.size(); i++) {
      dirs.put(
          dirPaths.get(i),
          DirKind.valueOf(require(kv, "dir." + i).toUpperCase(java.util.Locale.ROOT)));
    }
    Map<String, FileState> files = new LinkedHashMap<>();
    for (int i = 0; i < filePaths.size(); i++) {
      files.put(filePaths.get(i), parseFile(kv, "file." + i, filePaths.get(i)));
    }
    String id = kv.get("sysconf.id");
    return new NodeState(uid, dirs, files, id == null || id.isEmpty() ? null : id);
  }

  private static FileState parseFile(Map<String, String> kv, String key, String path) {
    FileState.Kind kind =
        FileState.Kind.valueOf(require(kv, key + ".type").toUpperCase(java.util.Locale.ROOT));
    if (kind == FileState.Kind.MISSING) {
      return FileState.missing(path);
    }
    String owner = require(kv, key + ".owner");
    int mode = Integer.parseInt(require(kv, key + ".mode"), 8);
    String sha = emptyToNull(kv.get(key + ".sha256"));
    String size = kv.get(key + ".size");
    String b64 = kv.get(key + ".b64");
    String content =
        b64 == null ? null : new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
    return new FileState(
        path, kind, owner, mode, sha, size == null ? -1 : Long.parseLong(size), content);
  }

  private static String require(Map<String, String> kv, String key) {
    String v = kv.get(key);
    if (v == null) {
      throw new IllegalArgumentException("the script's output has no " + key);
    }
    return v;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
