package dev.clusterrun.core.launch.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.ExitException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadProcessTest {
  /** With --skip-checks, enroot missing on the head is said as the `enroot` check says it. */
  @Test
  void aProgramMissingFromThePathIsACheckFailureNamingItNotAnInternalError() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThatThrownBy(
            () ->
                HeadProcess.start(
                    List.of("clusterrun-test-no-such-program", "start", "x"),
                    Map.of("PATH", "/nonexistent-dir"),
                    null,
                    out,
                    out))
        .isInstanceOfSatisfying(
            ExitException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ExitCode.CHECK_FAILED);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "clusterrun-test-no-such-program is not installed on the head"
                          + " (not in PATH=/nonexistent-dir):"
                          + " nothing was started; `clusterrun check` shows what each node lacks");
            });
  }

  @Test
  void startsStreamsOutputAndPassesTheExitCodeOn() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    HeadProcess p =
        HeadProcess.start(
            List.of("sh", "-c", "echo out $HEAD_PROCESS_TEST; echo err >&2; exit 7"),
            Map.of("HEAD_PROCESS_TEST", "given"),
            null,
            out,
            err);
    assertThat(p.pid()).isPositive();
    assertThat(p.waitFor()).isEqualTo(7);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("out given\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err\n");
  }

  @Test
  void interruptSendsSigintToTheProcess() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    HeadProcess p =
        HeadProcess.start(
            // perl, not sh: a shell cannot trap a signal that was ignored when it started
            // (POSIX), and SIGINT is ignored in anything started with '&' by a script, as a CI
            // job may be; mpirun, like perl, sets its own handler.
            List.of(
                "perl",
                "-e",
                "$| = 1; $SIG{INT} = sub { print \"got-int\\n\"; exit 130 };"
                    + " print \"ready\\n\"; select(undef, undef, undef, 0.05) while 1;"),
            Map.of(),
            null,
            out,
            out);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!out.toString(StandardCharsets.UTF_8).contains("ready")
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    p.interrupt();
    assertThat(p.waitFor(Duration.ofSeconds(10))).isTrue();
    assertThat(p.waitFor()).isEqualTo(130);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("got-int");
  }

  @Test
  void aMissingProgramIsAnIoErrorNamingIt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                HeadProcess.start(
                    List.of("/nonexistent/clusterrun-no-such-program"),
                    Map.of(),
                    null,
                    new ByteArrayOutputStream(),
                    new ByteArrayOutputStream()))
        .isInstanceOf(java.io.IOException.class)
        .hasMessageContaining("clusterrun-no-such-program");
  }
}
