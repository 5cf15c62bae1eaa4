package dev.clusterrun.core.setup;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test-only {@link NodeShell}: runs each script with {@code sh -c} on this machine, optionally
 * behind a prefix such as {@code runuser -u nobody --} to be another user.
 */
final class LocalShell implements NodeShell {
  private final String node;
  private final List<String> prefix;
  private final List<String> scripts = new ArrayList<>();
  private Runnable afterFirstRun;

  LocalShell(String node, String... prefix) {
    this.node = node;
    this.prefix = List.of(prefix);
  }

  /** Runs {@code action} once, right after the first script: a change racing with setup. */
  LocalShell afterFirstRun(Runnable action) {
    this.afterFirstRun = action;
    return this;
  }

  /** Every script run so far. */
  List<String> scripts() {
    return scripts;
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public ExecResult run(String script, Duration timeout) {
    scripts.add(script);
    try {
      ExecResult r = exec(prefix, script, timeout);
      if (afterFirstRun != null) {
        Runnable a = afterFirstRun;
        afterFirstRun = null;
        a.run();
      }
      return r;
    } catch (IOException e) {
      return ExecResult.failed(e.getMessage(), Duration.ZERO);
    }
  }

  static ExecResult exec(List<String> prefix, String script, Duration timeout) throws IOException {
    List<String> argv = new ArrayList<>(prefix);
    argv.add("sh");
    argv.add("-c");
    argv.add(script);
    File out = File.createTempFile("localshell", ".out");
    File err = File.createTempFile("localshell", ".err");
    long start = System.nanoTime();
    try {
      Process p =
          new ProcessBuilder(argv)
              .directory(new File("/"))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(out)
              .redirectError(err)
              .start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        return ExecResult.failed("timed out", Duration.ofNanos(System.nanoTime() - start));
      }
      return new ExecResult(
          p.exitValue(),
          Files.readString(out.toPath(), StandardCharsets.UTF_8),
          Files.readString(err.toPath(), StandardCharsets.UTF_8),
          Duration.ofNanos(System.nanoTime() - start),
          null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExecResult.failed("interrupted", Duration.ofNanos(System.nanoTime() - start));
    } finally {
      Files.deleteIfExists(out.toPath());
      Files.deleteIfExists(err.toPath());
    }
  }

  /**
   * Runs {@code script} with {@code sh -c} and returns stdout; fails the test unless it exits 0.
   */
  static String sh(String script) {
    try {
      ExecResult r = exec(List.of(), script, Duration.ofSeconds(30));
      if (!r.ok()) {
        throw new AssertionError("sh -c " + script + " failed: " + r);
      }
      return r.stdout();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {}
}
