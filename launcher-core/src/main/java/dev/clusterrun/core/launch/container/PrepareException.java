package dev.clusterrun.core.launch.container;

/** The container could not be made ready; the message says why and names the command. */
public final class PrepareException extends Exception {
  private static final long serialVersionUID = 1L;

  public PrepareException(String message) {
    super(message);
  }
}
