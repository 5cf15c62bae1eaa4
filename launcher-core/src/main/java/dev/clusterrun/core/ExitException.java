package dev.clusterrun.core;

/**
 * A flow stopped short for a reason a person can act on, carrying its row of the exit-code table:
 * the CLI prints {@code clusterrun: <message>} and exits with that code, never with a stack trace.
 */
public final class ExitException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final ExitCode code;

  public ExitException(ExitCode code, String message) {
    super(message);
    this.code = code;
  }

  public ExitCode code() {
    return code;
  }
}
