package dev.clusterrun.core.image;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code docker://} image as enroot 4.1.2 reads it ({@code docker::_parse_uri} in its {@code
 * src/docker.sh}): {@code [USER@]REGISTRY#IMAGE}, {@code [USER@]HOST/IMAGE} (a first part with a
 * {@code .} or a {@code :} is a registry, any other a Docker Hub namespace) and {@code
 * [USER@]NAME} (Docker Hub's {@code library/NAME}), each with an optional {@code :TAG}, {@code
 * @sha256:DIGEST} or {@code :TAG@sha256:DIGEST} (the digest wins; the tag is only shown).
 *
 * @param user the user before {@code @}, or null
 * @param registry {@code host[:port]}; Docker Hub is {@code registry-1.docker.io}, as enroot uses
 * @param repository the repository path, e.g. {@code library/ubuntu} as enroot completes it
 * @param tag the tag ({@code latest} when neither tag nor digest is given); null with only a digest
 * @param digest {@code sha256:…} when the image is pinned, else null
 */
public record RegistryImage(
    String user, String registry, String repository, String tag, String digest) {
  /** Docker Hub's registry, as enroot names it. */
  public static final String DOCKER_HUB = "registry-1.docker.io";

  private static final String USER = "(?:([A-Za-z0-9_.!~*'()%;:&=+$,\\-./0-9:;<=>?@]+)@)?";
  private static final String IMAGE = "([a-z0-9/._-]+)";
  private static final String TAG = "([A-Za-z0-9._:-]+)";
  private static final String DIGEST = "(sha256:[A-Za-z0-9]+)";

  /** How one of enroot's forms sets the parts: where each group is, and who the registry is. */
  private record Form(Pattern pattern, int registry, int image, int tag, int digest, Host host) {
    Form(String regex, int registry, int image, int tag, int digest, Host host) {
      this(Pattern.compile("docker://" + USER + regex), registry, image, tag, digest, host);
    }
  }

  private enum Host {
    /** {@code FIRST/IMAGE}: FIRST is a registry if it has a {@code .} or {@code :}. */
    FIRST_PART,
    /** {@code NAME}: Docker Hub's {@code library/NAME}. */
    LIBRARY,
    /** {@code REGISTRY#IMAGE}: as written. */
    GIVEN
  }

  /** enroot 4.1.2's forms in its order; groups count from 2 (1 is the user). */
  private static final List<Form> FORMS =
      List.of(
          new Form("([^/#]+)/" + IMAGE + ":" + TAG + "@" + DIGEST, 2, 3, 4, 5, Host.FIRST_PART),
          new Form("([^/#]+)/" + IMAGE + "@" + DIGEST, 2, 3, 0, 4, Host.FIRST_PART),
          new Form("([^/#]+)/" + IMAGE + "(?::" + TAG + ")?", 2, 3, 4, 0, Host.FIRST_PART),
          new Form("([^/@#:]+):" + TAG + "@" + DIGEST, 0, 2, 3, 4, Host.LIBRARY),
          new Form("([^/@#:]+)@" + DIGEST, 0, 2, 0, 3, Host.LIBRARY),
          new Form("([^/@#:]+)(?::" + TAG + ")?", 0, 2, 3, 0, Host.LIBRARY),
          new Form("([^#/@]+)#" + IMAGE + ":" + TAG + "@" + DIGEST, 2, 3, 4, 5, Host.GIVEN),
          new Form("([^#/@]+)#" + IMAGE + "@" + DIGEST, 2, 3, 0, 4, Host.GIVEN),
          new Form("([^#/@]+)#" + IMAGE + "(?::" + TAG + ")?", 2, 3, 4, 0, Host.GIVEN));

  /**
   * Reads a {@code docker://} URI, as {@code spec.ImageRef} gives it.
   *
   * @throws IllegalArgumentException naming the URI, when enroot would refuse it too
   */
  public static RegistryImage parse(String dockerUri) {
    if (dockerUri == null || !dockerUri.startsWith("docker://")) {
      throw new IllegalArgumentException(
          "image '" + dockerUri + "' is not in a registry: only docker:// images are");
    }
    for (Form f : FORMS) {
      Matcher m = f.pattern().matcher(dockerUri);
      if (m.matches()) {
        return of(f, m);
      }
    }
    throw new IllegalArgumentException(
        "image '"
            + dockerUri
            + "' is not an enroot URI: expected docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:DIGEST]");
  }

  private static RegistryImage of(Form f, Matcher m) {
    String registry;
    String image = m.group(f.image());
    switch (f.host()) {
      case LIBRARY -> {
        registry = DOCKER_HUB;
        image = "library/" + image;
      }
      case FIRST_PART -> {
        String first = m.group(f.registry());
        if (first.contains(".") || first.contains(":")) {
          registry = first;
        } else {
          registry = DOCKER_HUB;
          image = first + "/" + image;
        }
      }
      default -> registry = m.group(f.registry());
    }
    String tag = f.tag() == 0 ? null : m.group(f.tag());
    String digest = f.digest() == 0 ? null : m.group(f.digest());
    if (tag == null && digest == null) {
      tag = "latest";
    }
    return new RegistryImage(m.group(1), registry, image, tag, digest);
  }

  /** The registry's host without its port: the machine its credentials are under, as curl's. */
  public String host() {
    return hostOf(registry);
  }

  static String hostOf(String hostPort) {
    if (hostPort.startsWith("[")) {
      int end = hostPort.indexOf(']');
      return end > 0 ? hostPort.substring(1, end) : hostPort;
    }
    int colon = hostPort.lastIndexOf(':');
    return colon > 0 ? hostPort.substring(0, colon) : hostPort;
  }

  /** What the manifest request names: the digest when pinned, else the tag. */
  String reference() {
    return digest != null ? digest : tag;
  }

  /**
   * The enroot URI that imports exactly {@code digest} from this image's registry and repository:
   * {@code docker://[USER@]REGISTRY#REPOSITORY:TAG@DIGEST}. enroot 4.1.2 takes {@code
   * REGISTRY#IMAGE:TAG@sha256:…} and {@code REGISTRY#IMAGE@sha256:…} and fetches by the digest (the
   * tag is kept for people to read); enroot 4.0 and 4.1 take them too, 3.x neither.
   */
  public String pinnedUri(String digest) {
    if (digest == null || !digest.matches("sha256:[A-Za-z0-9]+")) {
      throw new IllegalArgumentException("not a sha256 digest: " + digest);
    }
    return "docker://"
        + (user == null ? "" : user + "@")
        + registry
        + "#"
        + repository
        + (tag == null ? "" : ":" + tag)
        + "@"
        + digest;
  }

  /** {@code REGISTRY/REPOSITORY:TAG[@DIGEST]} for messages. */
  public String display() {
    return registry
        + "/"
        + repository
        + (tag == null ? "" : ":" + tag)
        + (digest == null ? "" : "@" + digest);
  }
}
