package dev.clusterrun.core.remote;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

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
    return stream(script, out, err, null);
  }

  /**
   * {@link #stream}, the command's standard input handed to {@code input} once it started (to write
   * into and close) instead of closed at once; a shell that cannot give it closes it. A shell that
   * cannot stream either runs the script with {@link #run} and copies its output at the end.
   */
  default ExecResult stream(
      String script, OutputStream out, OutputStream err, Consumer<OutputStream> input) {
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
   * Starts a POSIX shell script as {@link #run} does and leaves it running, without waiting for it
   * or reading its output, its standard input a pipe from clusterrun that nothing else holds. The
   * script reads the end of its input when the returned stream is closed and also when clusterrun
   * ends, however it ends (even SIGKILL: the kernel closes the pipe) and, on another node, when the
   * connection to it ends (sshd closes the command's input). On the head it runs in a session of
   * its own, so a hang-up or Ctrl-C meant for clusterrun does not reach it.
   *
   * @return the script's standard input; null when this shell cannot hold a command or could not
   *     start it
   */
  default OutputStream hold(String script) {
    return null;
  }

  /** Runs one argv, quoted with {@link ShellQuote}. */
  default ExecResult exec(List<String> argv, Duration timeout) {
    return run(ShellQuote.join(argv), timeout);
  }

  @Override
  void close();
}
