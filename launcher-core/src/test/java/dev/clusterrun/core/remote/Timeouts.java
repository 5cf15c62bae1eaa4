package dev.clusterrun.core.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What every {@link NodeShell} does when a command outlives its timeout. */
final class Timeouts {
  private Timeouts() {}

  /**
   * Runs {@code script} on {@code sh} (node {@code node}) with a timeout of {@code ms} and holds
   * the shell to killing it within seconds: exit code -1, the error naming the node and the
   * timeout, and what the script printed before, {@code partial}, kept.
   */
  static void assertKilledAfter(NodeShell sh, String node, String script, int ms, String partial) {
    long t0 = System.nanoTime();
    ExecResult r = sh.run(script, Duration.ofMillis(ms));
    long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertThat(took).isLessThan(5000);
    assertThat(r.exitCode()).isEqualTo(-1);
    assertThat(r.error()).isEqualTo(node + ": timed out after " + ms + " ms (command killed)");
    assertThat(r.stdout()).isEqualTo(partial);
  }
}
