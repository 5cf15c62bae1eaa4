package dev.clusterrun.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Re-parses shell command lines with a real shell ({@code sh} and {@code bash}), as a remote shell
 * would read them, and hands back the words each line holds, without running any of them: each line
 * becomes the arguments of {@code printf '%s\0'}. If quoting were broken, a {@code $(touch MARKER)}
 * in a value would run, so the shell runs in a directory of its own with a {@code PATH} that holds
 * {@code touch} and nothing else, and {@link #executedSomething} looks for what it would have made.
 *
 * <p>The script goes to the shell on its standard input, as UTF-8 bytes: the JVM encodes argv in
 * the locale's charset, which under {@code LANG=C} would turn every other character into '?'.
 */
final class RealShell {
  /** The shells every line is read with: POSIX {@code sh} (dash on Debian) and bash. */
  static final List<String> SHELLS = List.of("/bin/sh", "/bin/bash");

  /** Files a broken quote would let a generated value make. */
  static final List<String> MARKERS = List.of("MARKER", "MARKER2");

  private static final String END = "<<end-of-line-4f1c9e>>";

  private final Path dir;

  RealShell(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir.resolve("bin"));
      Path touch = dir.resolve("bin/touch");
      if (!Files.exists(touch)) {
        Files.createSymbolicLink(touch, Path.of("/usr/bin/touch"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The words of each line as {@code shell} reads them; a line whose quoting is broken takes the
   * following lines with it, so the result then differs from what was meant.
   */
  List<List<String>> words(String shell, List<String> lines) {
    StringBuilder script = new StringBuilder();
    for (String line : lines) {
      script.append("printf '%s\\0' ").append(line).append('\n');
      script.append("printf '%s\\0' '").append(END).append("'\n");
    }
    byte[] out = run(shell, script.toString());
    List<List<String>> result = new ArrayList<>();
    List<String> current = new ArrayList<>();
    String text = new String(out, StandardCharsets.UTF_8);
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\0') {
        String w = text.substring(start, i);
        start = i + 1;
        if (w.equals(END)) {
          result.add(current);
          current = new ArrayList<>();
        } else {
          current.add(w);
        }
      }
    }
    if (!current.isEmpty() || start < text.length()) {
      current.add(text.substring(start));
      result.add(current);
    }
    return result;
  }

  /** Whether a marker file exists: some generated text ran as a command. */
  boolean executedSomething() {
    for (String m : MARKERS) {
      if (Files.exists(dir.resolve(m))) {
        return true;
      }
    }
    return false;
  }

  private byte[] run(String shell, String script) {
    ProcessBuilder pb = new ProcessBuilder(shell, "-s").directory(dir.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", dir.resolve("bin").toString());
    pb.environment().put("HOME", dir.toString());
    pb.environment().put("LC_ALL", "C.UTF-8");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    try {
      Process p = pb.start();
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      Thread reader =
          new Thread(
              () -> {
                try (InputStream in = p.getInputStream()) {
                  in.transferTo(buf);
                } catch (IOException ignored) {
                  // the process died; what was read is the answer
                }
              });
      reader.start();
      try (OutputStream in = p.getOutputStream()) {
        in.write(script.getBytes(StandardCharsets.UTF_8));
      } catch (IOException brokenPipe) {
        // the shell stopped reading (a syntax error): its output so far is the answer
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(shell + " did not finish reading the lines");
      }
      reader.join();
      return buf.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
