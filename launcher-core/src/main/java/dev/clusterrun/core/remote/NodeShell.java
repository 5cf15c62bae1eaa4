package dev.clusterrun.core.remote;

import java.time.Duration;
import java.util.List;

/**
 * Runs commands on one node: over SSH for remote nodes, as a local process on the head. One
 * instance per node, reused for every command of a run; {@link #close()} ends the connection.
 */
public interface NodeShell extends AutoCloseable {
  /** The node's name as the hostfile gives it. */
  String node();

  /**
   * Runs a POSIX shell script (given to {@code sh -c} on the node, in a non-interactive session as
   * the job user) and collects its output. Never throws for a failing command; connection trouble
   * comes back as a result with {@code error} set.
   */
  ExecResult run(String script, Duration timeout);

  /** Runs one argv, quoted with {@link ShellQuote}. */
  default ExecResult exec(List<String> argv, Duration timeout) {
    return run(ShellQuote.join(argv), timeout);
  }

  @Override
  void close();
}
