package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each rank of {@code screen} runs ({@code screen-run.sh}), with the machine's real {@code
 * sh}: a stand-in {@code mpicc} first on the PATH writes a "program" that prints its words and
 * exits 7, and counts its own calls.
 */
class ScreenRunScriptTest {
  @TempDir Path tmp;

  private Path bin;
  private Path calls;

  /** A stand-in mpicc ({@code -O3 -o OUT SRC}) that fails when {@code fail} is true. */
  private Path mpicc(boolean fail) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("tools"));
    calls = tmp.resolve("mpicc.calls");
    Path program = tmp.resolve("program");
    script(program, "#!/bin/sh\nprintf '%s\\n' \"ran $*\"\nexit 7\n");
    script(
        dir.resolve("mpicc"),
        "#!/bin/sh\n"
            + "echo \"$@\" >> "
            + calls
            + "\n"
            + (fail ? "echo 'error: x.c:1' >&2; exit 1\n" : "")
            + "cp "
            + program
            + " \"$3\"\n");
    return dir;
  }

  private static void script(Path p, String text) throws Exception {
    Files.writeString(p, text);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Starts the rank's command as {@link ScreenFlow#command} gives it, its input closed. */
  private Process start(Path tools, String rank, String... words) throws Exception {
    bin = tmp.resolve("bin").resolve("screen-abc");
    Files.createDirectories(bin.getParent());
    Path src = tmp.resolve("screen.c");
    Files.writeString(src, "int main(void) { return 0; }\n");
    List<String> cmd = ScreenFlow.command(src.toString(), bin.toString(), List.of(words));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PATH", tools + ":" + System.getenv("PATH"));
    pb.environment().remove("OMPI_COMM_WORLD_RANK");
    if (rank != null) {
      pb.environment().put("OMPI_COMM_WORLD_RANK", rank);
    }
    Process p = pb.start();
    p.getOutputStream().close();
    return p;
  }

  /** Its output once it ended (a few lines: they fit the pipes while it runs). */
  private static String[] finish(Process p) throws Exception {
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the rank's shell ended").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new String[] {out, err};
  }

  private long compiles() throws Exception {
    return Files.exists(calls) ? Files.readAllLines(calls).size() : 0;
  }

  @Test
  void theFirstRankCompilesOnceAndTheProgramGetsItsWordsAndItsExitCodePassesThrough()
      throws Exception {
    Path tools = mpicc(false);
    Process p = start(tools, "0", "3", "8", "0-1,2-3");
    String[] io = finish(p);
    assertThat(io[0]).isEqualTo("ran 3 8 0-1,2-3\n");
    assertThat(p.exitValue()).isEqualTo(7);
    assertThat(compiles()).isEqualTo(1);
    assertThat(Files.readString(calls)).startsWith("-O3 -o " + bin + ".");

    // kept for the next screen in the same image: no second compile
    Process again = start(tools, null, "1");
    assertThat(finish(again)[0]).isEqualTo("ran 1\n");
    assertThat(compiles()).isEqualTo(1);
    assertThat(bin.getParent()).isDirectoryContaining(f -> f.equals(bin));
    try (var files = Files.list(bin.getParent())) {
      assertThat(files).as("no half-written binary left").containsExactly(bin);
    }
  }

  @Test
  void aSourceThatDoesNotCompileEndsTheRankWithTheReason() throws Exception {
    Process p = start(mpicc(true), "0", "1");
    String[] io = finish(p);
    assertThat(p.exitValue()).isEqualTo(1);
    assertThat(io[1])
        .contains("error: x.c:1")
        .contains("clusterrun-screen: mpicc could not compile");
    assertThat(bin).doesNotExist();
  }

  @Test
  void anotherRankWaitsForTheBinaryInsteadOfCompiling() throws Exception {
    Path tools = mpicc(false);
    Process p = start(tools, "3", "x");
    Thread.sleep(500);
    assertThat(p.isAlive()).as("rank 3 waits for rank 0's binary").isTrue();
    script(bin, "#!/bin/sh\necho \"late $*\"\n");
    String[] io = finish(p);
    assertThat(io[0]).isEqualTo("late x\n");
    assertThat(p.exitValue()).isZero();
    assertThat(compiles()).isZero();
  }

  /**
   * A job's stop (SIGTERM to the rank's shell) reaches the program, whose exit code is the rank's.
   */
  @Test
  void termIsPassedOnToTheProgram() throws Exception {
    Path tools = mpicc(false);
    Path started = tmp.resolve("started");
    bin = tmp.resolve("bin").resolve("screen-abc");
    Files.createDirectories(bin.getParent());
    script(
        bin,
        "#!/bin/sh\ntrap 'echo got-term; exit 3' TERM\ntouch "
            + started
            + "\ni=0\nwhile [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done\n");
    Process p = start(tools, "0");
    for (int i = 0; i < 200 && !Files.exists(started); i++) {
      Thread.sleep(25);
    }
    assertThat(started).exists();
    // SIGTERM to the rank's shell (Process.destroy would also close its output)
    assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor())
        .isZero();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue())
        .as("the program's exit code, not the shell's death by TERM")
        .isEqualTo(3);
    assertThat(finish(p)[0]).isEqualTo("got-term\n");
  }

  @Test
  void theCommandIsTheScriptWithItsWordsAsPositionalParameters() throws Exception {
    List<String> cmd =
        ScreenFlow.command("/app/screen/s.c", "/app/screen/bin/screen-k", List.of("2", "-"));
    assertThat(cmd.subList(0, 2)).containsExactly("sh", "-c");
    // shown whole in `running:` and ps: the code only, not the resource's header comment
    assertThat(cmd.get(2)).startsWith("src=$1 bin=$2\n").contains("mpicc -O3");
    assertThat(cmd.subList(3, cmd.size()))
        .containsExactly(
            "clusterrun-screen", "/app/screen/s.c", "/app/screen/bin/screen-k", "2", "-");
    // A hostile word reaches the program as one word, and nothing in it runs.
    Path mark = tmp.resolve("pwned");
    String hostile = BashRun.hostile(mark);
    Path tools = mpicc(false);
    Process p = start(tools, "0", hostile);
    assertThat(finish(p)[0]).isEqualTo("ran " + hostile + "\n");
    assertThat(mark).doesNotExist();
  }
}
