package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test-only {@link NodeShell}: runs the script with the real {@code sh -c} on this machine, with a
 * clean environment like a non-interactive SSH session (only what the test gives), optionally
 * behind a prefix such as {@code runuser -u nobody --} or {@code unshare -m ...}.
 */
public final class ShNodeShell implements NodeShell {
  private final String node;
  private final Map<String, String> env;
  private final List<String> prefix;
  public int calls;

  ShNodeShell(String node, Map<String, String> env, List<String> prefix) {
    this.node = node;
    this.env = new LinkedHashMap<>(env);
    this.prefix = List.copyOf(prefix);
  }

  public static ShNodeShell of(String node, String home) {
    return new ShNodeShell(
        node,
        Map.of("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME", home),
        List.of());
  }

  /**
   * The head's shell, home {@code dir}, with a stand-in {@code ssh} first on PATH (in {@code
   * dir/bin}): a {@code sh} script of {@code body}.
   */
  public static ShNodeShell headWithSsh(java.nio.file.Path dir, String body) throws IOException {
    java.nio.file.Path bin = java.nio.file.Files.createDirectories(dir.resolve("bin"));
    java.nio.file.Path ssh = bin.resolve("ssh");
    java.nio.file.Files.writeString(ssh, "#!/bin/sh\n" + body);
    java.nio.file.Files.setPosixFilePermissions(
        ssh, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    return of("head", dir.toString()).withEnv("PATH", bin + ":/usr/bin:/bin");
  }

  /**
   * A node's enroot sysconf directory under {@code tmp} ({@code etc/enroot} with {@code
   * enroot.conf.d} and {@code hooks.d}), {@code tmp} made readable for the unprivileged user some
   * tests run as.
   */
  static java.nio.file.Path sysconf(java.nio.file.Path tmp) throws IOException {
    java.nio.file.Files.setPosixFilePermissions(
        tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    java.nio.file.Path sysconf = java.nio.file.Files.createDirectories(tmp.resolve("etc/enroot"));
    java.nio.file.Files.createDirectories(sysconf.resolve("enroot.conf.d"));
    java.nio.file.Files.createDirectories(sysconf.resolve("hooks.d"));
    return sysconf;
  }

  public ShNodeShell withEnv(String key, String value) {
    Map<String, String> e = new LinkedHashMap<>(env);
    e.put(key, value);
    return new ShNodeShell(node, e, prefix);
  }

  ShNodeShell withPrefix(String... words) {
    return new ShNodeShell(node, env, List.of(words));
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public ExecResult run(String script, Duration timeout) {
    calls++;
    long start = System.nanoTime();
    List<String> argv = new ArrayList<>(prefix);
    argv.addAll(List.of("sh", "-c", script));
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().clear();
    pb.environment().putAll(env);
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      CompletableFuture<String> out =
          CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
      CompletableFuture<String> err =
          CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return ExecResult.failed("timed out after " + timeout.toSeconds() + " s", since(start));
      }
      return new ExecResult(p.exitValue(), out.join(), err.join(), since(start), null);
    } catch (IOException e) {
      return ExecResult.failed(e.getMessage(), since(start));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExecResult.failed("interrupted", since(start));
    }
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }

  private static String drain(InputStream in) {
    try (in) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      in.transferTo(b);
      return b.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {}
}
