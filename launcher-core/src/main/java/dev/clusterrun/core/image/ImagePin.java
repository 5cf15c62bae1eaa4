package dev.clusterrun.core.image;

import dev.clusterrun.core.spec.ImageRef;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's registry image pinned to one manifest digest, once, on the head: every plan of the run,
 * the import, the named container's record and {@code summary.json} then name that digest, so a tag
 * pushed again is a new image and never the old one under the tag's name.
 *
 * <p>The tag is asked once ({@link RegistryClient}, as enroot's {@code docker.sh} asks). A
 * reference pinned by digest is used as given, with no request. When the registry cannot be
 * reached, the newest import of the same reference in the workspace's cache is used, with a warning
 * naming its age; with none, the run cannot go on. Thread-safe: the early start and the checks may
 * ask at once, and the first answer is everyone's.
 */
public final class ImagePin {
  /**
   * The digest the run uses.
   *
   * @param reference the image as the job gives it ({@code docker://…})
   * @param digest {@code sha256:…}
   * @param uri the enroot URI that imports exactly that digest
   * @param warning why this digest is not the registry's answer (offline: the cached one), or null
   */
  public record Pinned(String reference, String digest, String uri, String warning) {}

  /**
   * The pin, or why there is none.
   *
   * @param problem one line naming registry, repository, tag and the error; null when pinned
   * @param fix what to do about it (e.g. the credentials lines to add), or null
   */
  public record Outcome(Pinned pinned, String problem, String fix) {
    public boolean ok() {
      return pinned != null;
    }
  }

  private final String reference;
  private final RegistryImage image;
  private final Path workspace;
  private final Clock clock;
  private Outcome outcome;

  private ImagePin(String reference, RegistryImage image, Path workspace, Clock clock) {
    this.reference = reference;
    this.image = image;
    this.workspace = workspace;
    this.clock = clock;
  }

  /**
   * The pin of the job's image, or null when it is not a registry image ({@code .sqsh} files,
   * {@code dockerd://}, {@code podman://}, no image).
   *
   * @param workspace the run's workspace, whose cache serves when the registry is unreachable; null
   *     when there is none (then unreachable is a problem)
   */
  public static ImagePin of(ImageRef ref, String workspace) {
    if (ref == null || !ref.isUri() || !ref.value().startsWith("docker://")) {
      return null;
    }
    RegistryImage image;
    try {
      image = RegistryImage.parse(ref.value());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return new ImagePin(
        ref.value(), image, workspace == null ? null : Path.of(workspace), Clock.systemUTC());
  }

  /**
   * The reference as the cache records it: the pinned URI without its digest ({@code
   * docker://[USER@]REGISTRY#REPOSITORY:TAG}), the same whichever way the job wrote the image.
   */
  public String canonical() {
    return ImageCache.withoutDigest(image.pinnedUri("sha256:" + "0".repeat(64)));
  }

  /** The outcome, asking the registry the first time. */
  public synchronized Outcome resolve(RegistrySettings settings) {
    if (outcome == null) {
      outcome = ask(settings);
    }
    return outcome;
  }

  /** The outcome if asked already, else null. */
  public synchronized Outcome outcome() {
    return outcome;
  }

  private Outcome ask(RegistrySettings settings) {
    if (image.digest() != null) {
      return new Outcome(new Pinned(reference, image.digest(), reference, null), null, null);
    }
    try {
      Resolved r = new RegistryClient(settings).resolve(image);
      return new Outcome(
          new Pinned(reference, r.digest(), image.pinnedUri(r.digest()), null), null, null);
    } catch (RegistryException e) {
      return switch (e.kind()) {
        case UNREACHABLE -> offline(e);
        case UNAUTHORIZED -> new Outcome(null, e.getMessage(), credentialsFix(settings, e));
        case NOT_FOUND ->
            new Outcome(
                null,
                e.getMessage(),
                "check the image's name and tag (" + image.display() + ") on the registry");
        case FORBIDDEN ->
            new Outcome(
                null,
                e.getMessage(),
                "the credentials in "
                    + settings.credentialsFile()
                    + " are not allowed to read "
                    + image.repository());
        case PROTOCOL ->
            new Outcome(null, e.getMessage(), "is " + image.registry() + " a registry (API v2)?");
      };
    }
  }

  /** The registry cannot be reached: the newest cached import of the reference, if any. */
  private Outcome offline(RegistryException e) {
    Optional<ImageCache.Entry> cached = Optional.empty();
    if (workspace != null) {
      try {
        cached = ImageCache.inWorkspace(workspace).newestFor(canonical());
      } catch (IOException | RuntimeException ignored) {
        // no cache to fall back on
      }
    }
    if (cached.isEmpty()) {
      return new Outcome(
          null,
          e.getMessage(),
          "no import of "
              + reference
              + " is cached in "
              + (workspace == null ? "the workspace" : workspace.resolve(ImageCache.DIR))
              + " to run instead; reach the registry (network, proxy: https_proxy/no_proxy) and"
              + " run again");
    }
    ImageCache.Entry c = cached.get();
    String age = age(Duration.between(c.imported(), clock.instant()));
    return new Outcome(
        new Pinned(
            reference,
            c.digest(),
            image.pinnedUri(c.digest()),
            e.getMessage()
                + "; using the newest cached import of "
                + reference
                + ", imported "
                + age
                + " ago ("
                + c.digest()
                + "): the tag may have moved since"),
        null,
        null);
  }

  private String credentialsFix(RegistrySettings settings, RegistryException e) {
    Netrc netrc;
    try {
      netrc = Netrc.read(settings.credentialsFile(), System.getenv());
    } catch (IOException | RuntimeException x) {
      netrc = Netrc.empty();
    }
    List<String> missing =
        CredentialsAdvice.missingMachines(image.registry(), e.realmHost(), netrc);
    if (missing.isEmpty()) {
      return "the registry refused the credentials in "
          + settings.credentialsFile()
          + " for "
          + image.host()
          + ": check its login and password";
    }
    return CredentialsAdvice.advice(settings.credentialsFile(), missing).strip();
  }

  /** A duration as people say it: {@code 40 s}, {@code 12 min}, {@code 5 h}, {@code 3 days}. */
  static String age(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s < 120) {
      return s + " s";
    }
    if (s < 7200) {
      return s / 60 + " min";
    }
    if (s < 172800) {
      return s / 3600 + " h";
    }
    return s / 86400 + " days";
  }

  /**
   * The registry settings enroot's {@code import} uses on the head, from the head's effective
   * enroot values (null when unknown) over this process's environment.
   */
  public static RegistrySettings settings(Map<String, String> enrootValues) {
    return RegistrySettings.of(enrootValues == null ? Map.of() : enrootValues, System.getenv());
  }
}
