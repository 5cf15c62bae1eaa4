package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a script clusterrun sends with the real {@code bash} or {@code sh} of this machine ({@code
 * bash -c SCRIPT}), and a value hostile to any shell that must reach such a script as it is.
 */
public final class BashRun {
  private BashRun() {}

  /**
   * A value with every character a shell might act on: quotes, a command substitution both ways, a
   * backslash, a glob, a tab and a newline. {@code MARK} stands for a file that a command run from
   * the value would create.
   */
  public static final String HOSTILE = "it's \"q\" $(touch MARK) `touch MARK` a\\b *\t;\nnext";

  /** {@link #HOSTILE} with {@code MARK} the file {@code mark}. */
  public static String hostile(Path mark) {
    return HOSTILE.replace("MARK", mark.toString());
  }

  /** {@code bash -c script ARG...} with {@code env} added, its input empty. */
  public static ExecResult run(String script, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>(List.of("bash", "-c", script, "bash"));
    argv.addAll(List.of(args));
    return exec(argv, env);
  }

  /** {@code sh -c script} (the node's POSIX shell, dash on Debian), its input empty. */
  public static ExecResult sh(String script) throws IOException, InterruptedException {
    return exec(List.of("sh", "-c", script), Map.of());
  }

  private static ExecResult exec(List<String> argv, Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", argv.get(0)).isTrue();
    return new ExecResult(
        p.exitValue(),
        new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8),
        Duration.ZERO,
        null);
  }
}
