package dev.clusterrun.core.remote;

import java.time.Duration;

/**
 * Test-only {@link NodeShell} of a node that gives no answer: every command fails with {@code
 * error}.
 */
public record DeadShell(String node, String error) implements NodeShell {
  @Override
  public ExecResult run(String script, Duration timeout) {
    return ExecResult.failed(error, Duration.ZERO);
  }

  @Override
  public void close() {}
}
