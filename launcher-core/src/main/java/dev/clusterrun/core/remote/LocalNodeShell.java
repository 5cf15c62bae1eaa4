package dev.clusterrun.core.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecuteResultHandler;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.Executor;
import org.apache.commons.exec.PumpStreamHandler;
import org.apache.commons.exec.Watchdog;

/**
 * The head node's {@link NodeShell}: runs {@code sh -c script} as a local process with
 * commons-exec. stdin is closed; stdout and stderr are drained completely before the result is
 * made; on timeout the process and everything it started are killed.
 */
public final class LocalNodeShell implements NodeShell {
  private static final Duration DRAIN_AFTER_EXIT = Duration.ofSeconds(5);

  private final String node;
  private final List<String> via;

  /**
   * @param node the head node's name as the hostfile gives it
   */
  public LocalNodeShell(String node) {
    this(node, List.of());
  }

  /**
   * @param via a local command that runs its last argument on {@code node} (e.g. {@code ssh …
   *     NODE}): the script is given to it as {@code sh -c SCRIPT}; empty to run locally
   */
  LocalNodeShell(String node, List<String> via) {
    this.node = node;
    this.via = List.copyOf(via);
  }

  private CommandLine command(String script) {
    if (via.isEmpty()) {
      CommandLine cl = new CommandLine("sh");
      cl.addArgument("-c");
      cl.addArgument(script, false);
      return cl;
    }
    CommandLine cl = new CommandLine(via.get(0));
    for (String w : via.subList(1, via.size())) {
      cl.addArgument(w, false);
    }
    cl.addArgument("sh -c " + ShellQuote.quote(script), false);
    return cl;
  }

  private String program() {
    return via.isEmpty() ? "sh" : via.get(0);
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public ExecResult run(String script, Duration timeout) {
    long start = System.nanoTime();
    CommandLine cl = command(script);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PumpStreamHandler streams = new PumpStreamHandler(out, err, null);
    // A background child that keeps stdout open must not hang us forever after sh exits.
    streams.setStopTimeout(DRAIN_AFTER_EXIT);
    TreeKillingWatchdog watchdog = new TreeKillingWatchdog(timeout);
    DefaultExecutor ex = DefaultExecutor.builder().setExecuteStreamHandler(streams).get();
    ex.setExitValues(null); // every exit code is a result, not an exception
    ex.setWatchdog(watchdog);
    int code;
    String error = null;
    try {
      code = ex.execute(cl);
    } catch (ExecuteException e) {
      code = e.getExitValue();
      if (!watchdog.killedProcess()) {
        error = node + ": " + e.getMessage();
      }
    } catch (IOException e) {
      return ExecResult.failed(
          node + ": cannot run " + program() + ": " + e.getMessage(), elapsed(start));
    }
    if (watchdog.killedProcess()) {
      code = -1;
      error = node + ": timed out after " + SshNodeShell.human(timeout) + " (command killed)";
    }
    return new ExecResult(
        code,
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        elapsed(start),
        error);
  }

  @Override
  public ExecResult stream(
      String script, OutputStream out, OutputStream err, Consumer<OutputStream> input) {
    long start = System.nanoTime();
    CommandLine cl = command(script);
    PumpStreamHandler streams =
        new PumpStreamHandler(out, err, null) {
          @Override
          public void setProcessInputStream(OutputStream os) {
            // Handed over to be written and closed by the caller, else closed at once.
            if (input == null) {
              super.setProcessInputStream(os);
            } else {
              input.accept(os);
            }
          }
        };
    streams.setStopTimeout(DRAIN_AFTER_EXIT);
    TreeKillingWatchdog watchdog = new TreeKillingWatchdog(null);
    DefaultExecutor ex = DefaultExecutor.builder().setExecuteStreamHandler(streams).get();
    ex.setExitValues(null);
    ex.setWatchdog(watchdog);
    DefaultExecuteResultHandler done = new DefaultExecuteResultHandler();
    try {
      ex.execute(cl, done);
    } catch (IOException e) {
      return ExecResult.failed(
          node + ": cannot run " + program() + ": " + e.getMessage(), elapsed(start));
    }
    try {
      done.waitFor();
    } catch (InterruptedException e) {
      watchdog.destroyProcess();
      Thread.currentThread().interrupt();
      return ExecResult.failed(node + ": interrupted", elapsed(start));
    }
    if (done.getException() != null && done.getExitValue() == Executor.INVALID_EXITVALUE) {
      return ExecResult.failed(node + ": " + done.getException().getMessage(), elapsed(start));
    }
    return new ExecResult(done.getExitValue(), "", "", elapsed(start), null);
  }

  @Override
  public OutputStream hold(String script) {
    List<String> argv = new ArrayList<>();
    if (via.isEmpty()) {
      argv.addAll(List.of("sh", "-c", script));
    } else {
      argv.addAll(via);
      argv.add("sh -c " + ShellQuote.quote(script));
    }
    List<String> own = new ArrayList<>(List.of("setsid"));
    own.addAll(argv);
    for (List<String> words : List.of(own, argv)) {
      try {
        // Java closes every other descriptor in the child: the pipe's writing end stays ours only.
        Process p =
            new ProcessBuilder(words)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.getOutputStream();
      } catch (IOException e) {
        // no setsid (util-linux) on this head: in clusterrun's own session then
      }
    }
    return null;
  }

  private static Duration elapsed(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Override
  public void close() {
    // nothing held
  }

  /** commons-exec's watchdog kills only {@code sh}; this one kills its descendants too. */
  private static final class TreeKillingWatchdog extends ExecuteWatchdog {
    private volatile Process process;
    private volatile boolean killed;

    /**
     * @param timeout null: no time limit (only {@link #destroyProcess} kills)
     */
    @SuppressWarnings("deprecation")
    TreeKillingWatchdog(Duration timeout) {
      super(timeout == null ? INFINITE_TIMEOUT : Math.max(1, timeout.toMillis()));
    }

    @Override
    public synchronized void start(Process p) {
      this.process = p;
      super.start(p);
    }

    @Override
    public synchronized void timeoutOccured(Watchdog w) {
      Process p = process;
      if (p != null && p.isAlive()) {
        // The shell first, so it cannot go on to its next command once a child dies; then the
        // children it had (they are re-parented once the shell is gone, so list them before).
        List<ProcessHandle> children = p.descendants().toList();
        killed = true;
        p.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
      }
      super.timeoutOccured(w);
    }

    @Override
    public synchronized boolean killedProcess() {
      return killed || super.killedProcess();
    }
  }
}
