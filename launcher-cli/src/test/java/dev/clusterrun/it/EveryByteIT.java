package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every byte and every end, on a 3-node local cluster (2 slots each), clusterrun run as the job
 * user on node1 as a CI step runs it:
 *
 * <ul>
 *   <li>six ranks each print 20 MB on standard output and 5 MB on standard error while clusterrun's
 *       reader takes nothing for the first 2 s (a slow terminal, a busy CI log): every byte reaches
 *       the terminal and the run directory's logs, ten runs in each launcher and mode. Before the
 *       fix, mpirun dropped what it still held for a full pipe when it ended (exit 0, no word);
 *   <li>{@code clusterrun run … | head -1}: clusterrun exits 141 within 10 s of {@code head}'s end,
 *       and nothing of the run is left on any node;
 *   <li>{@code --time=10s} (and the job file's {@code time:}) over {@code sleep 300}: exit 124
 *       within 20 s, nothing left, {@code summary.json} says {@code "ended": "time-limit"}.
 * </ul>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EveryByteIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "eb-hosts", 2, "eb-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(300);

  /** Runs of each launcher and mode (the figure). */
  static final int RUNS = Integer.getInteger("clusterrun.it.everyByteRuns", 10);

  /** What each rank (or node) prints: 20 MB of x on stdout, 5 MB of Q on stderr, 99-char lines. */
  static final String PRINT =
      "head -c 20000000 /dev/zero | tr '\\0' x | fold -w 99;"
          + " head -c 5000000 /dev/zero | tr '\\0' Q | fold -w 99 >&2";

  static List<String> image;

  @BeforeAll
  static void setup() {
    LocalCluster c = HEAD.cluster();
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = Runs.orTinyImage(c, Runs.requiredImageFlags(c, HEAD.shared() + "/eb-image.sqsh"));
    // The image imported once before anything is counted: enroot import's own lines ("[INFO]
    // Querying registry …") are on clusterrun's standard error, not the job's.
    List<String> warm = new ArrayList<>(List.of("--np", "1", "--stdin=none"));
    warm.addAll(image);
    warm.addAll(List.of("--", "true"));
    ok(HEAD.run(RUN_TIMEOUT, List.of(), clusterrunArgs(warm)));
  }

  @Test
  @Order(1)
  void theMpirunLauncherDeliversEveryByteInEachModeWithASlowReader() {
    for (List<String> mode :
        List.of(List.<String>of(), List.of("--label"), List.of("--output-per-rank"))) {
      List<String> args = new ArrayList<>(List.of("--np", "6", "--stdin=none"));
      args.addAll(mode);
      everyByte(args, 6, "mpirun " + mode);
    }
  }

  @Test
  @Order(2)
  void thePerNodeLauncherDeliversEveryByteLabelledOrNot() {
    for (List<String> mode : List.of(List.<String>of(), List.of("--no-label"))) {
      List<String> args = new ArrayList<>(List.of("--launcher=per-node", "--stdin=none"));
      args.addAll(mode);
      everyByte(args, 3, "per-node " + mode);
    }
  }

  /**
   * {@link #RUNS} runs of {@code args} whose {@code writers} each print {@link #PRINT},
   * clusterrun's stdout and stderr each read only after 2 s: the x and Q counts in the terminal and
   * the logs.
   */
  private static void everyByte(List<String> args, int writers, String what) {
    long xs = 20_000_000L * writers;
    long qs = 5_000_000L * writers;
    for (int i = 1; i <= RUNS; i++) {
      List<String> a = new ArrayList<>(args);
      a.addAll(image);
      a.addAll(List.of("--", "sh", "-c", PRINT));
      String run = ShellQuote.join(clusterrun(a));
      String dir = HEAD.shared() + "/eb-" + i;
      String script =
          String.join(
              "\n",
              "set -u",
              "d=" + ShellQuote.quote(dir),
              "rm -rf \"$d\" && mkdir -p \"$d\"",
              "{ "
                  + run
                  + " 2>&1 1>&3 3>&- | { sleep 2; cat > \"$d/err\"; }; } 3>&1 |"
                  + " { sleep 2; cat > \"$d/out\"; }",
              "r=$(ls -td " + ShellQuote.quote(HEAD.ws()) + "/runs/*/ | head -1)",
              // clusterrun's own lines (running: … tr '\\0' Q …) are not the job's; one may
              // follow the job's last bytes on their line.
              "count() { cat \"$@\" 2>/dev/null | sed 's/clusterrun: .*//' | tr -cd \"$C\" | wc -c; }",
              "C=x; t1=$(count \"$d/out\"); l1=$(count \"$r\"stdout.log \"$r\"*.stdout.log)",
              "C=Q; t2=$(count \"$d/err\"); l2=$(count \"$r\"stderr.log \"$r\"*.stderr.log)",
              "echo \"counts $t1 $l1 $t2 $l2 $r\"",
              "tail -3 \"$d/err\"",
              "rm -rf \"$d\"");
      Result res =
          HEAD.cluster().exec("node1", false, null, RUN_TIMEOUT, List.of("bash", "-c", script));
      String line =
          res.stdout().lines().filter(l -> l.startsWith("counts ")).findFirst().orElse("");
      System.err.println("--- " + what + " run " + i + ": " + line + "\n" + res.stderr());
      String[] f = line.split(" ");
      assertThat(f).as("%s run %d: %s", what, i, res).hasSize(6);
      assertThat(List.of(f[1], f[2], f[3], f[4]))
          .as(
              "%s run %d: x on the terminal, x in the logs, Q on the terminal, Q in the logs",
              what, i)
          .containsExactly(
              Long.toString(xs), Long.toString(xs), Long.toString(qs), Long.toString(qs));
      JsonNode s = summaryIn(f[5]);
      assertThat(s.path("exitCode").asInt()).as("%s run %d", what, i).isZero();
      assertThat(s.path("outputBytes").path("stdout").asLong()).isGreaterThanOrEqualTo(xs);
      assertThat(s.path("outputBytes").path("stderr").asLong()).isGreaterThanOrEqualTo(qs);
    }
  }

  @Test
  @Order(3)
  void aClosedReaderEndsTheRunWith141AndLeavesNothingBehind() throws Exception {
    List<String> a = new ArrayList<>(List.of("--np", "3", "--stdin=none"));
    a.addAll(image);
    a.addAll(
        List.of(
            "--", "sh", "-c", "i=0; while :; do i=$((i+1)); echo \"line $i\"; sleep 0.05; done"));
    String script =
        String.join(
            "\n",
            "set -u",
            ShellQuote.join(clusterrun(a)) + " 2>/dev/null | { head -1; date +%s.%N >&2; }",
            "echo \"exit ${PIPESTATUS[0]} $(date +%s.%N)\"");
    Result res =
        HEAD.cluster().exec("node1", false, null, RUN_TIMEOUT, List.of("bash", "-c", script));
    System.err.println("--- | head -1: " + res);
    String[] end =
        res.stdout().lines().filter(l -> l.startsWith("exit ")).findFirst().orElse("").split(" ");
    assertThat(end).as("%s", res).hasSize(3);
    assertThat(res.stdout()).startsWith("line 1\n");
    assertThat(end[1]).as("clusterrun's exit, as SIGPIPE would end mpirun").isEqualTo("141");
    double headEnded = Double.parseDouble(res.stderr().strip().lines().reduce((x, y) -> y).get());
    assertThat(Double.parseDouble(end[2]) - headEnded)
        .as("seconds from head's end to clusterrun's")
        .isLessThan(10.0);
    JsonNode s = summaryIn(newestRun());
    assertThat(s.path("ended").asText()).isEqualTo("SIGPIPE");
    assertThat(s.path("exitCode").asInt()).isEqualTo(141);
    assertThat(
            JobSignals.leftAfter(HEAD.cluster(), s.path("runId").asText(), Duration.ofSeconds(10)))
        .isEmpty();
  }

  @Test
  @Order(4)
  void aTimeLimitStopsTheJobOnEveryNodeWithExit124FromTheFlagAndFromTheJobFile() throws Exception {
    List<String> a = new ArrayList<>(List.of("--np", "3", "--stdin=none", "--time=10s"));
    a.addAll(image);
    a.addAll(List.of("--", "sleep", "300"));
    timeLimited(a, 10);

    // The job file's time: (srun's MM:SS form), the same end.
    String job = HEAD.shared() + "/eb-time.yaml";
    HEAD.cluster().writeAsJobUser(job, "time: \"0:05\"\ncommand: [sleep, \"300\"]\nmpi: {np: 3}\n");
    List<String> b = new ArrayList<>(List.of(job, "--stdin=none"));
    b.addAll(image);
    timeLimited(b, 5);
  }

  /**
   * {@code run ARGS} on node1 with {@code ps} asked 3 s in: exit 124 within {@code limit} + 10 s,
   * the stop said, {@code ps} showing the time left, nothing left, and {@code summary.json} saying
   * why.
   */
  private static void timeLimited(List<String> args, int limit) throws Exception {
    List<String> ps = HEAD.command(HEAD.onNodes("ps"));
    String err = HEAD.shared() + "/eb-time.err";
    String script =
        String.join(
            "\n",
            "set -u",
            "cd " + ShellQuote.quote(HEAD.shared()),
            "s=$(date +%s.%N)",
            ShellQuote.join(clusterrun(args)) + " > /dev/null 2> " + ShellQuote.quote(err) + " &",
            "p=$!",
            "sleep 3",
            ShellQuote.join(ps) + " 2>&1",
            "wait $p",
            "c=$?",
            "echo \"exit $c $(awk -v a=\"$(date +%s.%N)\" -v b=\"$s\" 'BEGIN {print a - b}')\"",
            "cat " + ShellQuote.quote(err) + " >&2");
    Result r =
        HEAD.cluster().exec("node1", false, null, RUN_TIMEOUT, List.of("bash", "-c", script));
    System.err.println("--- --time " + limit + ": " + r);
    String[] end =
        r.stdout().lines().filter(l -> l.startsWith("exit ")).findFirst().orElse("").split(" ");
    assertThat(end).as("%s", r).hasSize(3);
    assertThat(end[1]).as("clusterrun's exit, as timeout(1)'s").isEqualTo("124");
    assertThat(Double.parseDouble(end[2]))
        .as("seconds to the end, limit %d s", limit)
        .isLessThan(limit + 10.0);
    assertThat(r.stdout())
        .as("ps 3 s in")
        .containsPattern("STARTED +TIME LEFT")
        .containsPattern("Z +[1-" + (limit - 2) + "]s +node");
    assertThat(r.stderr()).contains("time limit " + limit + "s (--time) reached");
    JsonNode s = summaryIn(newestRun());
    assertThat(s.path("ended").asText()).isEqualTo("time-limit");
    assertThat(s.path("outcome").asText()).isEqualTo("time-limit");
    assertThat(
            JobSignals.leftAfter(HEAD.cluster(), s.path("runId").asText(), Duration.ofSeconds(10)))
        .isEmpty();
  }

  // ----------------------------------------------------------------------------------------------

  /** clusterrun's words for {@code run ARGS} on this cluster (a job file first, if any). */
  private static List<String> clusterrun(List<String> args) {
    List<String> cmd = HEAD.command(clusterrunArgs(args));
    return cmd;
  }

  private static List<String> clusterrunArgs(List<String> args) {
    List<String> w = HEAD.onNodes("run");
    w.addAll(args);
    return w;
  }

  private static String newestRun() {
    return ok(HEAD.cluster()
            .exec(
                "node1",
                "sh",
                "-c",
                "ls -td " + ShellQuote.quote(HEAD.ws()) + "/runs/*/ | head -1"))
        .stdout()
        .strip();
  }

  private static JsonNode summaryIn(String runDir) {
    try {
      return new ObjectMapper()
          .readTree(ok(HEAD.cluster().exec("node1", "cat", runDir + "/summary.json")).stdout());
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
