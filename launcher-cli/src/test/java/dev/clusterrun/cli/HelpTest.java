package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.cli.CliTest.Run;
import dev.clusterrun.core.ExitCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Help, completion and the words around them, as a user meets them. */
class HelpTest {
  @Test
  void helpCommandShowsHelp() {
    Run root = CliTest.run("help");
    assertThat(root.code()).isZero();
    assertThat(root.out()).startsWith("Usage: clusterrun ").contains("plan").contains("run");
    assertThat(root.out()).isEqualTo(CliTest.run("--help").out());

    Run plan = CliTest.run("help", "plan");
    assertThat(plan.code()).isZero();
    assertThat(plan.err()).isEmpty();
    assertThat(plan.out()).isEqualTo(CliTest.run("plan", "--help").out());

    Run unknown = CliTest.run("help", "plam");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("clusterrun: ");
  }

  /** The root --help shows every row of the one table, in its order and words. */
  @Test
  void rootHelpShowsTheOneExitCodeTable() {
    List<String[]> rows = exitRows(CliTest.run("--help").out());
    List<String> expected = new ArrayList<>();
    for (ExitCode c : ExitCode.values()) {
      expected.add(c.label() + " " + c.meaning());
    }
    assertThat(rows.stream().map(r -> r[0] + " " + r[1]).toList()).isEqualTo(expected);
  }

  /** Each command shows the rows that apply to it: run can end with 4 and N, plan cannot. */
  @Test
  void eachCommandShowsTheRowsThatApplyToIt() {
    assertThat(labels("run")).containsExactly("0", "N", "2", "3", "4", "5", "70", "124", "128+N");
    assertThat(labels("check")).containsExactly("0", "2", "3", "70", "128+N");
    assertThat(labels("setup")).containsExactly("0", "2", "4", "70", "128+N");
    assertThat(labels("plan")).containsExactly("0", "2", "70", "128+N");
    assertThat(labels("results")).containsExactly("0", "2", "70", "128+N");
    for (String command : List.of("run", "check", "setup", "plan")) {
      for (String[] row : exitRows(CliTest.run(command, "--help").out())) {
        ExitCode c =
            java.util.Arrays.stream(ExitCode.values())
                .filter(e -> e.label().equals(row[0]))
                .findFirst()
                .orElseThrow();
        assertThat(row[1]).as("%s --help, exit %s", command, row[0]).isEqualTo(c.meaning());
      }
    }
  }

  @Test
  void verboseNeverPrintsATraceForBadInput(@TempDir Path dir) throws IOException {
    Path job = dir.resolve("job.yaml");
    Files.writeString(job, "name: a: b\n");
    String hosts = CliTest.path("hostfiles/2x8.txt");
    for (String[] args :
        List.of(
            new String[] {"-v", "plan", job.toString(), "--nodes", hosts},
            new String[] {"plan", "--verbose", job.toString(), "--nodes", hosts},
            new String[] {"-v", "plan", "--nodes", dir.resolve("nope.txt").toString()},
            new String[] {"-v", "plan", "--nodes", hosts, "--np=0", "--", "x"})) {
      Run r = CliTest.run(args);
      assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.err())
          .as(String.join(" ", args))
          .startsWith("clusterrun: ")
          .doesNotContain("Exception")
          .doesNotContain("\tat ")
          .hasLineCount(1);
    }
  }

  @Test
  void aMissingHostfileNamesTheFlag() {
    Run r = CliTest.run("plan", "--nodes", "no-such-hosts.txt", "--container-image=u:1", "--", "x");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("clusterrun: --nodes no-such-hosts.txt: no such file\n");
  }

  @Test
  void completionOffersPresetsAndDaemonValues(@TempDir Path dir) throws Exception {
    Run c = CliTest.run("completion");
    assertThat(c.code()).isZero();
    Path script = dir.resolve("clusterrun.bash");
    Files.writeString(script, c.out());
    assertThat(complete(script, "clusterrun", "run", "--mpi-daemon", ""))
        .containsExactly("auto", "orted", "prted");
    assertThat(complete(script, "clusterrun", "hpl", "--mpi-daemon", "p")).containsExactly("prted");
    assertThat(complete(script, "clusterrun", "bench", ""))
        .containsExactlyElementsOf(dev.clusterrun.core.bench.BenchPreset.ids());
    assertThat(complete(script, "clusterrun", "bench", "hpl-")).containsExactly("hpl-mxp");
    assertThat(complete(script, "clusterrun", "he")).containsExactly("help");
  }

  /** What bash completion offers for the last word, running the generated script in bash. */
  private static List<String> complete(Path script, String... words) throws Exception {
    StringBuilder array = new StringBuilder();
    for (String w : words) {
      array.append(" '").append(w).append('\'');
    }
    String line = String.join(" ", words);
    String cur = words[words.length - 1];
    String prev = words[words.length - 2];
    String program =
        "source '"
            + script
            + "' 2>/dev/null; COMP_WORDS=("
            + array
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT=${#COMP_LINE}; _complete_clusterrun clusterrun '"
            + cur
            + "' '"
            + prev
            + "' 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
    Process p = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  @Test
  void setupNamesTheMountHomeSettingAsRunDoes() {
    String help = CliTest.run("setup", "--help").out();
    assertThat(help).contains("--no-container-mount-home").doesNotContain("--no-mount-home");
    assertThat(CliTest.run("run", "--help").out()).contains("--no-container-mount-home");

    assertThat(setup("--no-container-mount-home").spec().mountHome()).isFalse();
    assertThat(setup("--no-mount-home").spec().mountHome())
        .as("the old name still works")
        .isFalse();
    assertThat(setup().spec().mountHome()).isTrue();
  }

  private static SetupCommand setup(String... more) {
    List<String> args = new ArrayList<>(List.of("setup", "--nodes", "h", "--data-path", "/d"));
    args.addAll(List.of(more));
    CommandLine cl = new Cli(System.out, System.err, java.util.Map.of()).commandLine();
    CommandLine.ParseResult r = cl.parseArgs(args.toArray(String[]::new));
    return (SetupCommand) r.subcommand().commandSpec().userObject();
  }

  private static List<String> labels(String command) {
    return exitRows(CliTest.run(command, "--help").out()).stream().map(r -> r[0]).toList();
  }

  private static final Pattern ROW = Pattern.compile("^  (\\S+) +(\\S.*)$");

  /** The rows of a help's "Exit codes:" section: label and meaning, wrapped lines joined. */
  static List<String[]> exitRows(String help) {
    int at = help.indexOf("\nExit codes:\n");
    assertThat(at).as("an 'Exit codes:' section in%n%s", help).isNotNegative();
    List<String[]> rows = new ArrayList<>();
    for (String line : help.substring(at + "\nExit codes:\n".length()).split("\n")) {
      if (line.isBlank()) {
        break;
      }
      Matcher m = ROW.matcher(line);
      if (line.startsWith("    ") && !rows.isEmpty()) {
        String[] last = rows.get(rows.size() - 1);
        last[1] = last[1] + " " + line.strip();
      } else if (m.matches()) {
        rows.add(new String[] {m.group(1), m.group(2).strip()});
      } else {
        break;
      }
    }
    return rows;
  }
}
