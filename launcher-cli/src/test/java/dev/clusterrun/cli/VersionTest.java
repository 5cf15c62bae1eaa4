package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --version} after any command says clusterrun's version, as after {@code clusterrun}. */
class VersionTest {
  /** Every command's words, e.g. {@code [images, prune]}, from the command tree itself. */
  private static List<List<String>> commands(CommandLine c, List<String> path) {
    List<List<String>> all = new ArrayList<>();
    for (var e : c.getSubcommands().entrySet()) {
      if (e.getKey().equals("help") || !e.getValue().getCommandName().equals(e.getKey())) {
        continue;
      }
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      all.add(p);
      all.addAll(commands(e.getValue(), p));
    }
    return all;
  }

  @Test
  void everyCommandPrintsTheVersionOfClusterrun() {
    String version = CliTest.run("--version").out();
    assertThat(version).startsWith("clusterrun ");
    List<List<String>> all =
        commands(new Cli(System.out, System.err, java.util.Map.of()).commandLine(), List.of());
    assertThat(all).contains(List.of("run"), List.of("images", "prune"), List.of("screen"));
    for (List<String> words : all) {
      List<String> args = new ArrayList<>(words);
      args.add("--version");
      CliTest.Run r = CliTest.run(args.toArray(String[]::new));
      assertThat(r.out()).as("clusterrun %s --version", String.join(" ", words)).isEqualTo(version);
      assertThat(r.code()).as("exit of %s", words).isZero();
    }
  }
}
