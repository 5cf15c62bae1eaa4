package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shell script of the repository passes {@code shellcheck} at its default severity, with no
 * rc file ({@code --norc}), so nothing can be excluded for all files: the scripts clusterrun sends
 * (resources of launcher-core, which have no {@code #!} line and are checked as POSIX sh), the
 * enroot stand-in, the local cluster, the examples, the benchmarks, CI's entry point, the launcher
 * and the package's maintainer scripts. A script is a file named {@code *.sh} or one whose {@code
 * #!} line names a shell. A finding may only be silenced on its own line, with a reason, never for
 * a whole file.
 *
 * <p>Without shellcheck the test fails when {@code CI=true} and is skipped (saying so) elsewhere.
 */
class ShellcheckTest {
  /** Directories that hold no source: build output, version control, the local cluster's state. */
  private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", "runs");

  private static final Pattern SHELL_SHEBANG =
      Pattern.compile("#!\\s*(/usr)?/bin/(env\\s+)?(sh|bash|dash)(\\s.*)?");

  private static final Pattern DISABLE = Pattern.compile("^\\s*#\\s*shellcheck\\s+disable=.*");

  /** The repository: launcher-core's parent (tests run in the module's directory). */
  static Path repository() {
    Path module = Path.of("").toAbsolutePath();
    Path root = module.getParent();
    assertThat(root.resolve("launcher-core"))
        .as("the repository root above %s", module)
        .isDirectory();
    return root;
  }

  static List<Path> scripts() {
    Path root = repository();
    List<Path> found = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(p -> isShell(root, p)).sorted().forEach(p -> found.add(root.relativize(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  private static boolean isShell(Path root, Path p) {
    for (Path part : root.relativize(p)) {
      if (SKIPPED_DIRS.contains(part.toString())) {
        return false;
      }
    }
    if (!Files.isRegularFile(p)) {
      return false;
    }
    return p.getFileName().toString().endsWith(".sh") || shebang(p) != null;
  }

  /** The file's {@code #!} line when it names a shell, else null. */
  private static String shebang(Path p) {
    try {
      byte[] head = new byte[200];
      int n;
      try (var in = Files.newInputStream(p)) {
        n = in.readNBytes(head, 0, head.length);
      }
      String first = new String(head, 0, n, StandardCharsets.ISO_8859_1).split("\n", 2)[0];
      return SHELL_SHEBANG.matcher(first).matches() ? first : null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean shellcheckInstalled() {
    try {
      Process p = new ProcessBuilder("shellcheck", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void requireShellcheck() {
    if (shellcheckInstalled()) {
      return;
    }
    String why = "shellcheck is not installed (examples/local-cluster/install-deps.sh installs it)";
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionError(why + "; CI=true needs it");
    }
    System.err.println("ShellcheckTest: SKIPPED, " + why);
    Assumptions.abort(why);
  }

  @TestFactory
  Stream<DynamicTest> everyShellScriptPassesShellcheck() {
    requireShellcheck();
    Path root = repository();
    return scripts().stream()
        .map(s -> DynamicTest.dynamicTest(s.toString(), () -> shellcheck(root, s)));
  }

  private static void shellcheck(Path root, Path script) throws Exception {
    List<String> argv = new ArrayList<>(List.of("shellcheck", "--norc", "--format=gcc"));
    if (shebang(root.resolve(script)) == null) {
      // The scripts clusterrun sends have no #! line: they are run with sh.
      argv.add("--shell=sh");
    }
    argv.add(script.toString());
    Process p = new ProcessBuilder(argv).directory(root.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("shellcheck %s finished", script).isTrue();
    assertThat(out).as("shellcheck %s (exit %d)", script, p.exitValue()).isEmpty();
    assertThat(p.exitValue()).isZero();
  }

  @Test
  void theScriptsOfEveryKindAreFound() {
    assertThat(scripts())
        .map(Path::toString)
        .contains(
            "launcher-core/src/main/resources/dev/clusterrun/core/check/facts.sh",
            "launcher-core/src/main/resources/dev/clusterrun/core/setup/setup.sh",
            "launcher-core/src/main/resources/dev/clusterrun/core/launch/proof/agent-proof.sh",
            "examples/local-cluster/enroot-standin/enroot",
            "examples/local-cluster/cluster.sh",
            "examples/bench/ci-hpcc.sh",
            "bench/startup.sh",
            ".ci/run",
            "launcher-cli/src/main/dist/clusterrun",
            "launcher-cli/src/main/dist/make-cds.sh",
            "launcher-dist/src/deb/control/postinst")
        .doesNotContain("examples/local-cluster/enroot-standin/enroot-mount");
  }

  /**
   * A {@code # shellcheck disable=} among a script's first comment lines would silence the whole
   * file; one before a command silences only that command. And no rc file may exclude anything.
   */
  @Test
  void nothingIsSilencedForAWholeFile() throws IOException {
    Path root = repository();
    for (Path s : scripts()) {
      for (String line : Files.readAllLines(root.resolve(s), StandardCharsets.ISO_8859_1)) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          break;
        }
        assertThat(DISABLE.matcher(line).matches())
            .as("%s: a file-wide shellcheck disable: %s", s, line)
            .isFalse();
      }
    }
    try (Stream<Path> walk = Files.walk(root)) {
      assertThat(
              walk.filter(p -> p.getFileName().toString().equals(".shellcheckrc"))
                  .map(Path::toString))
          .isEmpty();
    }
  }
}
