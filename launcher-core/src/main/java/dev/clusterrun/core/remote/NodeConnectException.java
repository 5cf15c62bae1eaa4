package dev.clusterrun.core.remote;

/**
 * A node could not be reached: refused, timed out, host key refused, authentication failed. The
 * message reads {@code node: problem}.
 */
public final class NodeConnectException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String problem;

  public NodeConnectException(String node, String problem, Throwable cause) {
    super(node + ": " + problem, cause);
    this.problem = problem;
  }

  /** The problem alone, without the node. */
  public String problem() {
    return problem;
  }
}
