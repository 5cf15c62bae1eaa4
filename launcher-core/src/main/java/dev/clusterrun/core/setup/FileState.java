package dev.clusterrun.core.setup;

/**
 * What a node has at one path, as read by the setup script.
 *
 * @param path absolute path on the node
 * @param kind what is there
 * @param owner {@code uid:gid}, or {@code null} when missing
 * @param mode permission bits, or -1 when missing
 * @param sha256 hex SHA-256 of the content, or {@code null} when not a readable file
 * @param size content size in bytes, or -1 when not a readable file
 * @param content the text (UTF-8), or {@code null} when not read (missing, unreadable, too big)
 */
public record FileState(
    String path, Kind kind, String owner, int mode, String sha256, long size, String content) {

  public enum Kind {
    MISSING,
    FILE,
    SYMLINK,
    OTHER
  }

  public static FileState missing(String path) {
    return new FileState(path, Kind.MISSING, null, -1, null, -1, null);
  }

  /**
   * What the apply script compares before its first write, to refuse when the file changed since it
   * was read. Computed the same way by the script's {@code fingerprint} function.
   */
  public String fingerprint() {
    return kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + (sha256 == null ? "" : sha256);
  }

  public boolean rootOwned() {
    return "0:0".equals(owner);
  }
}
