package dev.clusterrun.core.spec;

/**
 * What a container is made from: an enroot URI ({@code docker://[USER@][REGISTRY#]IMAGE[:TAG]},
 * also {@code dockerd://} and {@code podman://}) or a path to a squashfs file.
 *
 * @param value the URI (scheme always present) or the path as given
 */
public record ImageRef(Kind kind, String value) {
  public enum Kind {
    URI,
    SQUASHFS
  }

  /**
   * Parses an image as Pyxis's {@code --container-image} does: a path (starts with {@code /} or
   * {@code .}, or ends in {@code .sqsh}) is a squashfs file; a scheme-less name is a docker image.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static ImageRef parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty image");
    }
    if (!text.equals(text.strip())) {
      throw new IllegalArgumentException("image '" + text + "' has leading or trailing spaces");
    }
    if (text.startsWith("/")
        || text.startsWith("./")
        || text.startsWith("../")
        || text.endsWith(".sqsh")) {
      return new ImageRef(Kind.SQUASHFS, text);
    }
    String uri = text;
    int scheme = text.indexOf("://");
    if (scheme < 0) {
      uri = "docker://" + text;
    } else {
      String s = text.substring(0, scheme);
      if (!(s.equals("docker") || s.equals("dockerd") || s.equals("podman"))) {
        throw new IllegalArgumentException(
            "image '"
                + text
                + "': unknown scheme '"
                + s
                + "://' (enroot knows docker://, dockerd://, podman://)");
      }
    }
    String rest = uri.substring(uri.indexOf("://") + 3);
    if (rest.isEmpty() || rest.endsWith("#") || rest.endsWith(":") || rest.endsWith("@")) {
      throw new IllegalArgumentException(
          "image '" + text + "' is incomplete; expected [USER@][REGISTRY#]IMAGE[:TAG]");
    }
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (Character.isWhitespace(c) || c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`') {
        throw new IllegalArgumentException("image '" + text + "' contains an invalid character");
      }
    }
    return new ImageRef(Kind.URI, uri);
  }

  public boolean isUri() {
    return kind == Kind.URI;
  }

  @Override
  public String toString() {
    return value;
  }
}
