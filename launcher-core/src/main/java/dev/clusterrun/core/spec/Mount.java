package dev.clusterrun.core.spec;

/**
 * A bind mount in Pyxis's notation {@code SRC:DST[:FLAGS]}, flags separated by {@code +} there
 * (because {@code ,} separates mounts) and by {@code ,} in enroot's {@code --mount}.
 *
 * @param flags enroot-style, comma separated; empty when none
 */
public record Mount(String source, String target, String flags) {
  /**
   * Parses one Pyxis/enroot mount. Accepts {@code +} or {@code ,} between flags.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static Mount parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty mount; expected SRC:DST[:FLAGS]");
    }
    String[] parts = text.split(":", 3);
    if (parts.length < 2 || parts[1].isEmpty()) {
      throw new IllegalArgumentException(
          "mount '" + text + "' has no destination; expected SRC:DST[:FLAGS]");
    }
    String src = parts[0];
    String dst = parts[1];
    if (src.isEmpty()) {
      throw new IllegalArgumentException("mount '" + text + "' has no source");
    }
    if (!(src.startsWith("/") || src.startsWith(".") || src.equals("tmpfs"))) {
      throw new IllegalArgumentException(
          "mount source '" + src + "' must be an absolute or relative path, or tmpfs");
    }
    if (!(dst.startsWith("/") || dst.startsWith("."))) {
      throw new IllegalArgumentException(
          "mount destination '" + dst + "' must be a path inside the container");
    }
    for (String w : new String[] {src, dst}) {
      for (int i = 0; i < w.length(); i++) {
        if (Character.isWhitespace(w.charAt(i))) {
          throw new IllegalArgumentException(
              "mount '"
                  + text
                  + "' contains white space, which Open MPI's launch agent cannot carry");
        }
      }
    }
    String flags = parts.length == 3 ? parts[2].replace('+', ',') : "";
    for (String f : flags.split(",", -1)) {
      if (!flags.isEmpty() && f.isEmpty()) {
        throw new IllegalArgumentException("mount '" + text + "' has an empty flag");
      }
    }
    return new Mount(src, dst, flags);
  }

  /** enroot's {@code --mount} argument. */
  public String toEnrootArg() {
    return flags.isEmpty() ? source + ":" + target : source + ":" + target + ":" + flags;
  }

  @Override
  public String toString() {
    return toEnrootArg();
  }
}
