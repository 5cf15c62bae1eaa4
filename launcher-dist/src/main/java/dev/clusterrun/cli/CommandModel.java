package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;

/**
 * The clusterrun command tree exactly as {@code Main} configures it, for the build-time tools of
 * launcher-dist (man pages, bash completion). It lives in launcher-cli's package only to reach the
 * package-private {@link Cli}; it is compiled into launcher-dist, never into the runtime jar.
 */
public final class CommandModel {
  private CommandModel() {}

  /** The configured root command line (exit-code table included), wired to discard output. */
  public static CommandLine commandLine() {
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    return new Cli(discard, discard, Map.of()).commandLine();
  }

  /** What {@code clusterrun completion} prints. */
  public static String bashCompletion() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of(),
            "completion");
    if (code != ExitCode.OK.value()) {
      throw new IllegalStateException(
          "clusterrun completion exited " + code + ": " + err.toString(StandardCharsets.UTF_8));
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
