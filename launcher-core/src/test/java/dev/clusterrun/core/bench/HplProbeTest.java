package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.ShellScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe of NVIDIA's HPC-Benchmarks container ({@code hpl-probe.sh}): pinned to golden files,
 * and run with bash, with stand-ins for {@code ls}, {@code find} and {@code uname} that print the
 * words they get.
 */
class HplProbeTest {
  @TempDir Path tmp;

  @Test
  void theScriptAndTheWordsSentWithItAreTheGoldenOnes() {
    GoldenText.assertMatches(
        HplProbe.script(true), getClass(), "golden/hpl-probe-with-dats.expected.txt");
    GoldenText.assertMatches(HplProbe.script(false), getClass(), "golden/hpl-probe.expected.txt");
  }

  /** PATH with {@code ls}, {@code find} and {@code uname} that print each word they get. */
  private Map<String, String> standIns() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    for (String tool : List.of("ls", "find")) {
      Path f = bin.resolve(tool);
      Files.writeString(f, "#!/bin/sh\nprintf '" + tool + "'\nprintf ' <%s>' \"$@\"\necho\n");
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Path uname = bin.resolve("uname");
    Files.writeString(uname, "#!/bin/sh\necho x86_64\n");
    Files.setPosixFilePermissions(uname, PosixFilePermissions.fromString("rwxr-xr-x"));
    return Map.of("PATH", bin + ":/usr/bin:/bin");
  }

  @Test
  void withBashItListsThePatternsAndTheSampleFilesOnlyWhenAsked() throws Exception {
    Map<String, String> env = standIns();
    // This machine has none of the paths: each pattern reaches ls as it is.
    assertThat(Path.of("/workspace")).doesNotExist();
    assertThat(Path.of("/opt/nvidia")).doesNotExist();
    assertThat(Path.of("/hpl.sh")).doesNotExist();
    StringBuilder ls = new StringBuilder("ls <-d>");
    for (String p : HplScriptLocator.SEARCH_PATHS) {
      ls.append(" <").append(p).append('>');
    }
    ExecResult with = BashRun.run(HplProbe.script(true), env);
    assertThat(with.exitCode()).isZero();
    assertThat(with.stdout())
        .isEqualTo(
            ls
                + "\n@@dat\nfind </workspace> </opt/nvidia> <-path> <*sample-dat*> <-name> <*.dat>\n"
                + "@@arch\nx86_64\n");
    ExecResult without = BashRun.run(HplProbe.script(false), env);
    assertThat(without.stdout()).isEqualTo(ls + "\n@@dat\n@@arch\nx86_64\n");
  }

  /**
   * With bash: each pattern is a glob, expanded whole (never split at blanks or newlines); one that
   * matches nothing arrives as it is, byte for byte; no command in one runs.
   */
  @Test
  void withBashHostilePatternsAreGlobsNeverCode() throws Exception {
    Path mark = tmp.resolve("pwned");
    Path dir = Files.createDirectories(tmp.resolve(BashRun.hostile(mark).replace("\\", "")));
    Files.writeString(dir.resolve("hpl.sh"), "");
    Files.writeString(dir.resolve("hpl.dat"), "");
    String unmatched = tmp.resolve("none " + BashRun.hostile(mark)).toString();
    List<String> args = new ArrayList<>(List.of("no", dir + "/h*.sh", unmatched));
    String script = ShellScript.load(HplProbe.class, "hpl-probe.sh").with(args);
    ExecResult r = BashRun.run(script, standIns());
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "ls <-d> <" + dir.resolve("hpl.sh") + "> <" + unmatched + ">\n@@dat\n@@arch\nx86_64\n");
    assertThat(mark).doesNotExist();
  }
}
