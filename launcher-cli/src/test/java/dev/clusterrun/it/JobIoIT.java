package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.summary;
import static dev.clusterrun.it.Runs.texts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job's standard input and its ranks' output, end to end on a 3-node local cluster (2 slots
 * each), clusterrun run as the job user on node1 with its standard input redirected from a file as
 * a user's shell does it: 10 MB of random bytes reach rank 0 intact (checksums compared) in the
 * container begun during the checks and in one started anew, and node 0 of the per-node launcher;
 * {@code --stdin=none} gives the end of input at once; six ranks printing fast in parallel with
 * {@code --label} give whole lines, each labelled with its node and rank, none lost, in the
 * terminal and in stdout.log, and {@code --output-per-rank} keeps each rank's own files.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobIoIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "io-hosts", 2, "io-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(240);

  /** Lines each rank prints in the labelled run (the figure). */
  static final int LINES = 50_000;

  static String input;
  static String inputSum;
  static List<String> image;

  @BeforeAll
  static void setupAndInput() {
    LocalCluster c = HEAD.cluster();
    input = HEAD.shared() + "/io-input.bin";
    HEAD.setup(HEAD.shared() + "/enroot-data");
    ok(c.exec("node1", "sh", "-c", "head -c 10485760 /dev/urandom > " + input));
    inputSum = ok(c.exec("node1", "sha256sum", input)).out().split("\\s+")[0];
    image = Runs.orTinyImage(c, Runs.requiredImageFlags(c, HEAD.shared() + "/io-image.sqsh"));
  }

  @Test
  @Order(1)
  void tenMegabytesPipedInReachRankZeroIntactInANewStartAndInTheContainerBegunDuringTheChecks() {
    String box = "io-box";
    try {
      // Made by this run (no early start: the container does not exist yet).
      List<String> first = new ArrayList<>(List.of("--container-name=" + box, "--np", "1"));
      first.addAll(image);
      first.addAll(List.of("--", "sha256sum"));
      Result made = ok(run(input, first));
      assertThat(made.stdout()).isEqualTo(inputSum + "  -\n");
      assertThat(texts(summary(made).path("prepare")))
          .noneMatch(a -> a.contains("began during the checks"));

      // Used as it is: the head's start begins during the checks, held; the input follows the go.
      Result early = ok(run(input, boxed(box, "1", "--", "sha256sum")));
      assertThat(early.stdout()).isEqualTo(inputSum + "  -\n");
      assertThat(texts(summary(early).path("prepare")))
          .anyMatch(a -> a.contains("began during the checks"));

      // --stdin=none: the job reads the end of its input at once, whatever clusterrun's is.
      Result none = ok(run(input, boxed(box, "1", "--stdin=none", "--", "sh", "-c", "wc -c")));
      assertThat(none.stdout().strip()).isEqualTo("0");

      // Another rank than 0, as mpirun's --stdin N: rank 2 (on node2) reads it, rank 0 nothing.
      Result two =
          ok(
              run(
                  input,
                  boxed(
                      box,
                      "3",
                      "--stdin=2",
                      "--",
                      "sh",
                      "-c",
                      "echo \"$OMPI_COMM_WORLD_RANK $(sha256sum)\"")));
      assertThat(two.stdout())
          .contains("2 " + inputSum + "  -\n")
          .contains("0 " + EMPTY_SUM + "  -\n");

      // No input at all (clusterrun's own is /dev/null): nothing hangs.
      Result nothing = ok(run("/dev/null", boxed(box, "1", "--", "sha256sum")));
      assertThat(nothing.stdout()).isEqualTo(EMPTY_SUM + "  -\n");
    } finally {
      HEAD.cluster().exec("node1", "enroot", "remove", "--force", box);
    }
  }

  static final String EMPTY_SUM =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  @Test
  @Order(2)
  void thePerNodeLauncherGivesTheInputToNodeZeroOnlyOverItsSession() {
    List<String> args = new ArrayList<>(List.of("--launcher=per-node"));
    args.addAll(image);
    args.addAll(List.of("--", "sha256sum"));
    Result r = ok(run(input, args));
    assertThat(r.stdout())
        .contains("node1: " + inputSum + "  -\n")
        .contains("node2: " + EMPTY_SUM + "  -\n")
        .contains("node3: " + EMPTY_SUM + "  -\n");
    // --stdin=1: the second node of the hostfile, over its own SSH session.
    List<String> second = new ArrayList<>(List.of("--launcher=per-node", "--stdin=1"));
    second.addAll(image);
    second.addAll(List.of("--", "sha256sum"));
    Result s = ok(run(input, second));
    assertThat(s.stdout())
        .contains("node1: " + EMPTY_SUM + "  -\n")
        .contains("node2: " + inputSum + "  -\n");
  }

  static final Pattern LABELLED =
      Pattern.compile("(node[123]):(\\d): rank (\\d) host (node[123]) line (\\d+)");

  @Test
  @Order(3)
  void sixRanksPrintingFastGiveWholeLabelledLinesNoneLostAndEachRanksOwnFiles() throws IOException {
    String each =
        "seq 1 "
            + LINES
            + " | sed \"s/^/rank $OMPI_COMM_WORLD_RANK host $(hostname) line /\";"
            + " echo \"rank $OMPI_COMM_WORLD_RANK says on stderr\" >&2";
    List<String> args =
        new ArrayList<>(List.of("--np", "6", "--label", "--output-per-rank", "--stdin=none"));
    args.addAll(image);
    args.addAll(List.of("--", "sh", "-c", each));
    long t = System.nanoTime();
    Result r = ok(run("/dev/null", args));
    long ms = (System.nanoTime() - t) / 1_000_000;
    Path runDir = Paths.get(summary(r).path("runDir").asText());
    for (String out : List.of(r.stdout(), Files.readString(runDir.resolve("stdout.log")))) {
      Map<Integer, Integer> lines = new HashMap<>();
      Map<Integer, Long> bytes = new HashMap<>();
      for (String l : out.split("\n", -1)) {
        if (l.isEmpty()) {
          continue;
        }
        Matcher m = LABELLED.matcher(l);
        assertThat(m.matches()).as("a whole, labelled line: [%s]", l).isTrue();
        int rank = Integer.parseInt(m.group(2));
        assertThat(m.group(3)).as(l).isEqualTo(m.group(2));
        assertThat(m.group(1))
            .as("the label's node is the rank's host: %s", l)
            .isEqualTo(m.group(4));
        assertThat(Integer.parseInt(m.group(5))).isEqualTo(lines.getOrDefault(rank, 0) + 1);
        lines.merge(rank, 1, Integer::sum);
        bytes.merge(rank, (long) l.length() + 1, Long::sum);
      }
      assertThat(lines).hasSize(6).allSatisfy((rank, n) -> assertThat(n).isEqualTo(LINES));
      System.err.println(
          "--- labelled: lines per rank " + lines + ", bytes " + bytes + ", " + ms + " ms");
    }
    // stderr stays stderr, labelled too.
    for (int rank = 0; rank < 6; rank++) {
      assertThat(r.stderr())
          .containsPattern("node[123]:" + rank + ": rank " + rank + " says on stderr\n");
      assertThat(r.stdout()).doesNotContain("says on stderr");
    }
    // Each rank's own files, as the rank wrote them: no label, nothing of another rank.
    for (int rank = 0; rank < 6; rank++) {
      Path own = runDir.resolve("ranks/rank." + rank);
      List<String> l = Files.readAllLines(own.resolve("stdout"), StandardCharsets.UTF_8);
      String mine = "rank " + rank + " host node";
      assertThat(l).hasSize(LINES).allMatch(x -> x.startsWith(mine));
      assertThat(Files.readString(own.resolve("stderr")))
          .isEqualTo("rank " + rank + " says on stderr\n");
    }
  }

  // ----------------------------------------------------------------------------------------------

  /**
   * {@code clusterrun run --nodes H --workspace WS ARGS < from}, as the job user on node1 from the
   * shared dir.
   */
  static Result run(String from, List<String> args) {
    List<String> cmd = HEAD.command(HEAD.onNodes("run"));
    cmd.addAll(args);
    String script =
        "cd "
            + ShellQuote.quote(HEAD.shared())
            + " && exec "
            + ShellQuote.join(cmd)
            + " < "
            + ShellQuote.quote(from);
    Result r = HEAD.cluster().exec("node1", false, null, RUN_TIMEOUT, List.of("sh", "-c", script));
    String shown = r.stdout().length() > 2000 ? r.stdout().substring(0, 2000) + "…" : r.stdout();
    System.err.println(
        "--- clusterrun run "
            + String.join(" ", args)
            + " < "
            + from
            + "\nexit "
            + r.exitCode()
            + "\n"
            + shown
            + "\n"
            + (r.stderr().length() > 4000 ? r.stderr().substring(0, 4000) : r.stderr()));
    return r;
  }

  /** {@code --container-name=BOX --np NP ARGS}. */
  static List<String> boxed(String box, String np, String... args) {
    List<String> a = new ArrayList<>(List.of("--container-name=" + box, "--np", np));
    a.addAll(List.of(args));
    return a;
  }
}
