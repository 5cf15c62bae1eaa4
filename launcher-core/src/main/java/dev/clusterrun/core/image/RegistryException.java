package dev.clusterrun.core.image;

/**
 * A registry's refusal or a network failure, in one line naming the registry, the repository, the
 * tag and the status or the network's error. Never holds a password or a token.
 */
public final class RegistryException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong, for the caller to decide (e.g. to import by the tag without the cache). */
  public enum Kind {
    /** No connection: refused, timed out, a name that does not resolve, TLS failed. */
    UNREACHABLE,
    /** 401: credentials missing or refused. */
    UNAUTHORIZED,
    /** 403. */
    FORBIDDEN,
    /** 404, or no manifest for the platform in the tag's index. */
    NOT_FOUND,
    /** An answer that is not the registry protocol: a bad status, header or body. */
    PROTOCOL
  }

  private final Kind kind;
  private final int status;
  private final String realmHost;

  RegistryException(Kind kind, int status, String message, String realmHost) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.realmHost = realmHost;
  }

  public Kind kind() {
    return kind;
  }

  /** The HTTP status, or 0 when there was none. */
  public int status() {
    return status;
  }

  /**
   * The host of the token service the registry's Bearer challenge named, or null (no challenge, or
   * Basic): a machine the credentials file needs too ({@link CredentialsAdvice}).
   */
  public String realmHost() {
    return realmHost;
  }
}
