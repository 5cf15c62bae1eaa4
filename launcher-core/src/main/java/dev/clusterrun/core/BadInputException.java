package dev.clusterrun.core;

/**
 * Bad input from a person: a file, a flag or an environment variable. The CLI prints it as {@code
 * clusterrun: <subject>: <problem>} and exits 2, never with a stack trace.
 *
 * <p>{@code subject} names where the problem is, as precisely as known: {@code hosts.txt:3}, {@code
 * job.yaml:4:7: container.mounts[1]}, {@code --container-name}.
 */
public final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String subject;
  private final String problem;

  public BadInputException(String subject, String problem) {
    super(subject + ": " + problem);
    this.subject = subject;
    this.problem = problem;
  }

  public BadInputException(String subject, String problem, Throwable cause) {
    super(subject + ": " + problem, cause);
    this.subject = subject;
    this.problem = problem;
  }

  /**
   * Runs a value check that reports by {@link IllegalArgumentException} (such as {@code
   * Mount.parse}) and names {@code subject} (a flag, a variable) when it fails.
   */
  public static <T> T about(String subject, java.util.function.Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(subject, e.getMessage(), e);
    }
  }

  public String subject() {
    return subject;
  }

  public String problem() {
    return problem;
  }
}
