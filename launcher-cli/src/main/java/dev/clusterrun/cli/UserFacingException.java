package dev.clusterrun.cli;

/** A failure to report as {@code clusterrun: <message>} with a given exit code, no stack trace. */
final class UserFacingException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  UserFacingException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
