package dev.clusterrun.core.spec;

import java.util.regex.Pattern;

/**
 * What a container is made from: an enroot URI ({@code docker://[USER@][REGISTRY#]IMAGE[:TAG]},
 * also {@code dockerd://} and {@code podman://}) or a path to a squashfs file.
 *
 * @param value the URI (scheme always present) or the path as given
 * @param readAs how clusterrun read the text when it is not what enroot would read from it written
 *     as given, e.g. {@code read nvcr.io/nvidia/pytorch:25.01-py3 as
 *     nvcr.io#nvidia/pytorch:25.01-py3 (a registry host before the first '/')}; null when the text
 *     was taken as written
 */
public record ImageRef(Kind kind, String value, String readAs) {
  public enum Kind {
    URI,
    SQUASHFS
  }

  /** An image taken as written. */
  public ImageRef(Kind kind, String value) {
    this(kind, value, null);
  }

  /**
   * Parses an image as Pyxis's {@code --container-image} does: a path (starts with {@code /} or
   * {@code .}, or ends in {@code .sqsh}) is a squashfs file; a scheme-less name is a docker image.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static ImageRef parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(
          "argument required: an enroot URI ([USER@][REGISTRY#]IMAGE[:TAG]) or a squashfs file");
    }
    if (!text.equals(text.strip())) {
      throw new IllegalArgumentException("image '" + text + "' has leading or trailing spaces");
    }
    if (text.equals(".")
        || text.equals("..")
        || text.startsWith("/")
        || text.startsWith("./")
        || text.startsWith("../")
        || text.endsWith(".sqsh")) {
      if (text.endsWith("/") || text.equals(".") || text.equals("..") || text.endsWith("/.")) {
        throw new IllegalArgumentException(
            "image '" + text + "' is a directory; give a squashfs file (e.g. ./image.sqsh)");
      }
      return new ImageRef(Kind.SQUASHFS, Carry.path(text, false));
    }
    String uri = text;
    String scheme = "docker";
    int sep = text.indexOf("://");
    if (sep < 0) {
      uri = "docker://" + text;
    } else {
      scheme = text.substring(0, sep);
      if (!(scheme.equals("docker") || scheme.equals("dockerd") || scheme.equals("podman"))) {
        throw new IllegalArgumentException(
            "image '"
                + text
                + "': unknown scheme '"
                + scheme
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
    boolean valid =
        scheme.equals("docker") ? DOCKER.matcher(rest).matches() : DAEMON.matcher(rest).matches();
    if (!valid) {
      throw new IllegalArgumentException(
          "image '"
              + (text.length() > 80 ? text.substring(0, 77) + "..." : text)
              + "' is not an enroot URI: expected [USER@][REGISTRY#]IMAGE[:TAG], the image in"
              + " lower case (letters, digits and / . _ -), e.g. nvcr.io#nvidia/pytorch:25.01-py3");
    }
    if (sep < 0) {
      String registry = registryForm(text);
      if (registry != null) {
        return new ImageRef(
            Kind.URI,
            "docker://" + registry,
            "read " + text + " as " + registry + " (a registry host before the first '/')");
      }
    }
    return new ImageRef(Kind.URI, uri);
  }

  /**
   * Docker's reading of a scheme-less name, in enroot's words: {@code HOST/PATH} with a registry
   * host before the first {@code /} (it has a {@code .} or a {@code :PORT}, or is {@code
   * localhost}) is {@code HOST#PATH}; null when the name is not of that form (Docker Hub names such
   * as {@code ubuntu}, {@code library/ubuntu} or {@code nvidia/cuda:12}, and names with a {@code
   * #}). Enroot before 4.0 reads {@code HOST/PATH} as a Docker Hub image (Pyxis issue 39); 4.0 to
   * 4.1.2 still read {@code localhost/PATH} so.
   */
  private static String registryForm(String text) {
    if (text.indexOf('#') >= 0) {
      return null;
    }
    int at = text.indexOf('@');
    int slash = text.indexOf('/');
    String user = "";
    String rest = text;
    if (at >= 0 && (slash < 0 || at < slash)) {
      user = text.substring(0, at + 1);
      rest = text.substring(at + 1);
      slash = rest.indexOf('/');
    }
    if (slash <= 0) {
      return null;
    }
    String host = rest.substring(0, slash);
    if (!(host.contains(".") || host.contains(":") || host.equals("localhost"))) {
      return null;
    }
    return user + host + "#" + rest.substring(slash + 1);
  }

  /**
   * The {@code docker://} forms enroot's {@code docker.sh} accepts: {@code [USER@]REGISTRY#IMAGE},
   * {@code [USER@]HOST/IMAGE} and {@code [USER@]NAME}, each with an optional {@code :TAG} and
   * {@code @sha256:DIGEST}; image paths are lower case.
   */
  private static final Pattern DOCKER =
      Pattern.compile(
          "([^@#/]+@)?(?:[^#/@]+#[a-z0-9/._-]+(?::[A-Za-z0-9._:-]+)?"
              + "|[^/#@]+/[a-z0-9/._-]+(?::[A-Za-z0-9._-]+)?"
              + "|[^/@#:]+(?::[A-Za-z0-9._-]+)?)"
              + "(?:@sha256:[A-Za-z0-9]+)?");

  /** {@code dockerd://} and {@code podman://}: a local image name. */
  private static final Pattern DAEMON = Pattern.compile("[A-Za-z0-9/._:-]+");

  public boolean isUri() {
    return kind == Kind.URI;
  }

  @Override
  public String toString() {
    return value;
  }
}
