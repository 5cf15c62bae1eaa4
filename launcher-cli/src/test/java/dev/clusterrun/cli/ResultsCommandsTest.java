package dev.clusterrun.cli;

import static dev.clusterrun.cli.BenchCommandsTest.hplDryRun2x8;
import static dev.clusterrun.cli.CliTest.path;
import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.cli.CliTest.Run;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.Metric;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code results compare} and {@code results report} as an operator meets them. */
class ResultsCommandsTest {
  static BenchResult result(Path ws, String id, Instant when, double gflops, Verdict v) {
    return BenchResult.builder("hpcc")
        .verdict(v)
        .reason(v == Verdict.PASSED ? null : "HPL: residual check FAILED")
        .headline(new Metric("HPL", gflops, "Gflops"))
        .metric("StarSTREAM_Triad", 40 + gflops)
        .n(960L)
        .nodes(List.of("node1", "node2", "node3"))
        .ranks(3)
        .startTime(when)
        .cluster("ci")
        .runId(id)
        .runDir(ws.resolve("runs").resolve(id).toString())
        .build();
  }

  /** Five nightly runs up to an hour ago; the third failed, the last fell 10 % from the first. */
  static Path log(Path ws) throws Exception {
    ResultsLog log = ResultsLog.inWorkspace(ws);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    double[] values = {4.0, 4.4, 1.0, 3.8, 3.6};
    for (int i = 0; i < values.length; i++) {
      log.append(
          result(
              ws,
              "run-" + (i + 1),
              now.minus(5 - i, ChronoUnit.DAYS).minus(1, ChronoUnit.HOURS),
              values[i],
              i == 2 ? Verdict.FAILED : Verdict.PASSED));
    }
    // an old run outside any one-week window
    log.append(result(ws, "run-0", now.minus(30, ChronoUnit.DAYS), 9.0, Verdict.PASSED));
    return ws;
  }

  @Test
  void compareTablesEachMetricAndExits1OnARegression(@TempDir Path ws) throws Exception {
    log(ws);
    Run r = results(ws, "compare", "--since", "7d");
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out().lines().toList())
        .containsExactly(
            "hpcc on ci: 3 nodes, 3 ranks, N=960",
            "  METRIC            UNIT    RUNS  FAILED  FIRST  LAST  MEAN   MEDIAN  CHANGE   VERDICT",
            "  HPL               Gflops  5     1       4      3.6   3.95   3.9     -10.00%  regressed",
            "  StarSTREAM_Triad  GB/s    5     1       44     43.6  43.95  43.9    -0.91%   steady");

    // a wider allowance, or a reference the last run holds: exit 0
    assertThat(results(ws, "compare", "--since", "7d", "--max-regression", "12").code()).isZero();
    Path refs = ws.resolve("refs.yaml");
    Files.writeString(
        refs,
        "clusters:\n  ci:\n    hpcc:\n      - nodes: 3\n        metrics:\n"
            + "          HPL: {value: 4, lower: -15%, unit: Gflops}\n");
    Run within =
        results(ws, "compare", "--since", "7d", "--metric", "HPL", "--references", refs.toString());
    assertThat(within.code()).as(within.out()).isZero();
    assertThat(within.out()).contains("within reference [3.4, +inf] (4 Gflops -15%/+inf)");
  }

  @Test
  void compareTwoRunIdsAsJson(@TempDir Path ws) throws Exception {
    log(ws);
    Run r = run("results", "compare", "run-0", "run-5", "--workspace", ws.toString(), "--json");
    assertThat(r.code()).as(r.err()).isEqualTo(1); // 9 -> 3.6
    JsonNode rows = new ObjectMapper().readTree(r.out());
    assertThat(rows.get(0).get("metric").asText()).isEqualTo("HPL");
    assertThat(rows.get(0).get("runs").asInt()).isEqualTo(2);
    assertThat(rows.get(0).get("first").asDouble()).isEqualTo(9.0);
    assertThat(rows.get(0).get("last").asDouble()).isEqualTo(3.6);
    assertThat(rows.get(0).get("changePercent").asDouble()).isEqualTo(-60.0);

    Run unknown = run("results", "compare", "run-1", "run-55", "--workspace", ws.toString());
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo("clusterrun: RUN_ID: no run run-55 in the results log; did you mean 'run-5'?\n");
    Run one = run("results", "compare", "run-1", "--workspace", ws.toString());
    assertThat(one.code()).isEqualTo(2);
    Run since = results(ws, "compare", "--since", "yesterday");
    assertThat(since.code()).isEqualTo(2);
    assertThat(since.err()).startsWith("clusterrun: --since: 'yesterday' is not an age");
  }

  @Test
  void reportWritesOneSelfContainedPageWithChartsAndLinks(@TempDir Path ws) throws Exception {
    log(ws);
    Path refs = ws.resolve("refs.yaml");
    Files.writeString(
        refs,
        "clusters:\n  ci:\n    hpcc:\n      - nodes: 3\n        metrics:\n"
            + "          HPL: {value: 4, lower: -15%, upper: +15%, unit: Gflops}\n");
    Path html = ws.resolve("report.html");
    Run r = results(ws, "report", "--html", html.toString(), "--references", refs.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEqualTo("clusterrun: results report: wrote " + html + " (6 runs)\n");
    String page = Files.readString(html);
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(html)))
        .isEqualTo("rw-r--r--");
    assertThat(page)
        .startsWith("<!DOCTYPE html>")
        .doesNotContain("http://", "https://", "<script", "<link", "src=", "url(", "@import");
    // one group, two charts (HPL, STREAM Triad); 5 passed points and 1 failed cross on each
    assertThat(count(page, "<figure class=\"chart\">")).isEqualTo(2);
    assertThat(count(page, "<circle class=\"point\"")).isEqualTo(10);
    assertThat(count(page, "<path class=\"failed\"")).isEqualTo(2);
    assertThat(count(page, "<rect class=\"ref-band\"")).isEqualTo(1); // HPL only
    // runs link to their run directories, relative to the page
    assertThat(page).contains("<a href=\"runs/run-3/\">run-3</a>");
    // a page for the last week only
    Run week =
        results(
            ws,
            "report",
            "--html",
            html.toString(),
            "--since",
            "7d",
            "--preset",
            "hpcc",
            "--cluster",
            "ci");
    assertThat(week.err()).contains("(5 runs)");

    Run dir = results(ws, "report", "--html", ws.toString());
    assertThat(dir.code()).isEqualTo(2);
    assertThat(dir.err()).startsWith("clusterrun: --html: " + ws + " is a directory");
    Run badRefs =
        results(ws, "report", "--html", html.toString(), "--references", path("README.md"));
    assertThat(badRefs.code()).isEqualTo(2);
    assertThat(badRefs.err()).startsWith("clusterrun: " + path("README.md") + ":");
  }

  @Test
  void benchRefusesReferencesThatCannotFitBeforeTouchingANode(@TempDir Path tmp) throws Exception {
    Path refs = tmp.resolve("refs.yaml");
    Files.writeString(
        refs,
        "clusters:\n  gpu-a:\n    hpl:\n      - nodes: 2\n        metrics:\n"
            + "          HPL: {value: 780000, lower: -5%}\n");
    String[] base = {"--gpu-model", "H200", "--references", refs.toString()};
    Run none = hplDryRun2x8(base);
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err())
        .isEqualTo(
            "clusterrun: --references: "
                + refs
                + " has no reference for hpl on cluster '2x8' (2 nodes, 16 ranks, 16 GPUs); it has"
                + " gpu-a/hpl nodes=2; name the cluster with --cluster NAME (default: the"
                + " hostfile's name)\n");
    String[] named = java.util.Arrays.copyOf(base, base.length + 2);
    named[base.length] = "--cluster";
    named[base.length + 1] = "gpu-a";
    Run ok = hplDryRun2x8(named);
    assertThat(ok.code()).as(ok.err()).isZero();

    named[base.length + 1] = "gpu a";
    Run bad = hplDryRun2x8(named);
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("clusterrun: --cluster: 'gpu a' cannot name a cluster");

    Files.writeString(refs, "clusters:\n  gpu-a:\n    hpl:\n      - nodes: two\n");
    Run broken = hplDryRun2x8(base);
    assertThat(broken.code()).isEqualTo(2);
    assertThat(broken.err())
        .startsWith("clusterrun: " + refs + ":4:16: clusters.gpu-a.hpl[0].nodes: expected a whole");
  }

  static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  /** {@code results COMMAND --workspace WS ARGS}. */
  static Run results(Path ws, String command, String... args) {
    List<String> a = new ArrayList<>(List.of("results", command, "--workspace", ws.toString()));
    a.addAll(List.of(args));
    return run(a.toArray(String[]::new));
  }
}
