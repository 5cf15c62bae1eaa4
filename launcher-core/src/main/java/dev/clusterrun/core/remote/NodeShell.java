package dev.clusterrun.core.remote;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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

  /**
   * Runs a POSIX shell script as {@link #run} does, for as long as it runs (a job's own process),
   * copying its stdout and stderr to {@code out} and {@code err} as they arrive; the result's
   * stdout and stderr are empty. Interrupting the calling thread ends the command (over SSH its
   * channel is closed: what it started may live on, to be found by its run id) and returns a result
   * whose {@code error} says so.
   */
  default ExecResult stream(String script, OutputStream out, OutputStream err) {
    ExecResult r = run(script, Duration.ofDays(3650));
    try {
      out.write(r.stdout().getBytes(StandardCharsets.UTF_8));
      out.flush();
      err.write(r.stderr().getBytes(StandardCharsets.UTF_8));
      err.flush();
    } catch (IOException e) {
      // where the output goes is the caller's business
    }
    return new ExecResult(r.exitCode(), "", "", r.elapsed(), r.error());
  }

  /**
   * {@link #stream}, the command's standard input handed to {@code input} once it started (to write
   * into and close) instead of closed at once; a shell that cannot give it closes it.
   */
  default ExecResult stream(
      String script,
      OutputStream out,
      OutputStream err,
      java.util.function.Consumer<OutputStream> input) {
    return stream(script, out, err);
  }

  /** Runs one argv, quoted with {@link ShellQuote}. */
  default ExecResult exec(List<String> argv, Duration timeout) {
    return run(ShellQuote.join(argv), timeout);
  }

  @Override
  void close();
}
