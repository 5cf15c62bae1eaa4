package dev.clusterrun.core.spec;

/** Rules for container names, shared by the YAML loader and the Pyxis-style flags. */
public final class ContainerName {
  /** A directory name under ENROOT_DATA_PATH, with room for enroot's own prefixes. */
  public static final int MAX_LENGTH = 200;

  private ContainerName() {}

  /**
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static String validate(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("empty container name");
    }
    if (name.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "container name '"
              + name
              + "' contains '/'; a name is one directory under ENROOT_DATA_PATH");
    }
    int colon = name.indexOf(':');
    if (colon >= 0) {
      throw new IllegalArgumentException(
          "container name '"
              + name
              + "' contains ':'; Pyxis's NAME:FLAG forms (create, exec, no_exec) have no meaning"
              + " here: give the name alone"
              + (colon > 0 ? " (" + name.substring(0, colon) + ")" : ""));
    }
    if (name.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "container name is "
              + name.length()
              + " characters long; at most "
              + MAX_LENGTH
              + " (it is a directory name under ENROOT_DATA_PATH)");
    }
    if (name.equals(".") || name.equals("..") || name.startsWith("-")) {
      throw new IllegalArgumentException("container name '" + name + "' is not allowed");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '-' || c == '.' || c == '+';
      if (!ok) {
        throw new IllegalArgumentException(
            "container name '" + name + "' may use only letters, digits and . _ - +");
      }
    }
    return name;
  }
}
