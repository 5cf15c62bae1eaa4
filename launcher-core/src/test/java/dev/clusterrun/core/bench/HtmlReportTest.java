package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The HTML report of recorded hpcc runs (see the fixtures' README) with the example references. The
 * page is also the documentation's example, {@code examples/bench/report-example.html}: this test
 * fails when the two differ (run it with {@code -Dclusterrun.updateExamples=true} to write the
 * example again after a deliberate change). That the page is drawn in a browser is proven by
 * BenchIT in headless Chromium.
 */
class HtmlReportTest {
  static final Path EXAMPLE = Path.of("..", "examples", "bench", "report-example.html");
  static final Path REFERENCES = Path.of("..", "examples", "bench", "references.yaml");

  static List<BenchResult> recorded() {
    List<BenchResult> out = new ArrayList<>();
    String log = Fixtures.read("results-hpcc-recorded.jsonl");
    int line = 0;
    for (String l : log.split("\n")) {
      line++;
      if (!l.isBlank()) {
        out.add(ResultsJson.fromJson(l, "results-hpcc-recorded.jsonl:" + line));
      }
    }
    return out;
  }

  static String render() throws Exception {
    References refs = References.parse(Files.readString(REFERENCES), "references.yaml");
    return HtmlReport.render(
        new HtmlReport.Input(
            recorded(),
            new Comparison.Options(5, Set.of(), refs),
            "/shared/ws/results.jsonl",
            Path.of("/shared/ws"),
            Instant.parse("2026-11-23T08:00:00Z")));
  }

  /** The charts of {@code page}, one match each: the figure, and its caption as group 1. */
  private static Matcher charts(String page) {
    return Pattern.compile(
            "<figure class=\"chart\">\\n<figcaption>([^ <]+).*?</figure>", Pattern.DOTALL)
        .matcher(page);
  }

  @Test
  void theExamplePageIsWhatTheRecordedRunsRenderTo() throws Exception {
    String page = render();
    if (Boolean.getBoolean("clusterrun.updateExamples")) {
      Files.writeString(EXAMPLE, page);
    }
    assertThat(Files.readString(EXAMPLE))
        .as("examples/bench/report-example.html is out of date")
        .isEqualTo(page);
  }

  @Test
  void everyChartHasItsPointsTheFailedRunAndTheReferenceBand() throws Exception {
    String page = render();
    List<BenchResult> runs = recorded();
    long failed = runs.stream().filter(r -> !r.passed()).count();
    assertThat(failed).isOne();
    Matcher m = charts(page);
    List<String> charts = new ArrayList<>();
    while (m.find()) {
      String chart = m.group();
      charts.add(m.group(1));
      assertThat(count(chart, "<circle class=\"point\"")).as(m.group(1)).isEqualTo(runs.size() - 1);
      assertThat(count(chart, "<path class=\"failed\"")).as(m.group(1)).isOne();
      assertThat(count(chart, "<polyline class=\"trend\"")).as(m.group(1)).isOne();
      boolean referenced = m.group(1).equals("HPL") || m.group(1).equals("StarSTREAM_Triad");
      assertThat(count(chart, "<rect class=\"ref-band\""))
          .as(m.group(1))
          .isEqualTo(referenced ? 1 : 0);
    }
    // the headline first, then every performance figure hpcc reports
    assertThat(charts.get(0)).isEqualTo("HPL");
    assertThat(charts).contains("StarSTREAM_Triad", "PTRANS_GBs", "MaxPingPongLatency_usec");
    assertThat(charts).doesNotContain("CommWorldProcs", "MPIRandomAccess_Errors", "HPL_Tflops");
    // the band spans the HPL reference: [0.6, 9] Gflops
    assertThat(page).contains("reference [0.6, 9] (3 Gflops -80%/+200%), references.yaml:");
    // each run in the table, linked relative to the page; the failure with its reason
    for (BenchResult r : runs) {
      assertThat(page).contains("<a href=\"runs/" + r.runId() + "/\">" + r.runId() + "</a>");
    }
    assertThat(page).contains("<div class=\"reason\">MPIRandomAccess: Found 7864 errors");
  }

  @Test
  void thePageIsSelfContainedAndEscapesWhatItShows() throws Exception {
    String page = render();
    assertThat(page)
        .doesNotContain("http://", "https://", "<script", "<link", "src=", "url(", "@import");
    BenchResult evil =
        recorded().get(1).toBuilder()
            .image("<img src=x onerror=alert(1)>&")
            .cluster("a\"b")
            .build();
    String p =
        HtmlReport.render(
            new HtmlReport.Input(
                List.of(evil),
                new Comparison.Options(5, Set.of(), null),
                "log",
                Path.of("/shared/ws"),
                Instant.parse("2026-11-23T08:00:00Z")));
    assertThat(p).doesNotContain("<img").contains("&lt;img src=x onerror=alert(1)&gt;&amp;");
    assertThat(p).contains("a&quot;b");
  }

  static BenchResult screen(String runId, String start, double node3, double median) {
    java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
    m.put("median/bandwidth_MBps", median);
    m.put("node3/bandwidth_MBps", node3);
    return BenchResult.builder("screen")
        .verdict(Verdict.PASSED)
        .headline(new Metric("bandwidth", median, "MB/s"))
        .metrics(m)
        .build()
        .withRun(List.of("node1", "node2", "node3"), 3, null, "img", Instant.parse(start), null)
        .withOrigin("rack-a", runId, "/shared/ws/runs/" + runId);
  }

  @Test
  void aNodesScreenFigureIsDrawnAgainstTheRunsMedianOverTime() {
    String page =
        HtmlReport.render(
            new HtmlReport.Input(
                List.of(
                    screen("r1", "2026-11-20T08:00:00Z", 1000, 1010),
                    screen("r2", "2026-11-21T08:00:00Z", 900, 1000),
                    screen("r3", "2026-11-22T08:00:00Z", 500, 1000)),
                new Comparison.Options(5, Set.of(), null),
                "log",
                Path.of("/shared/ws"),
                Instant.parse("2026-11-23T08:00:00Z")));
    Matcher m = charts(page);
    List<String> withMedian = new ArrayList<>();
    while (m.find()) {
      if (m.group().contains("<polyline class=\"median\"")) {
        withMedian.add(m.group(1));
      }
    }
    // node3's chart has the median beside it; the median's own chart does not
    assertThat(withMedian).containsExactly("node3/bandwidth_MBps");
    assertThat(page).contains("500 (median 1000, -50.0%)").contains("900 (median 1000, -10.0%)");
  }

  @Test
  void linksAreRelativeAndEncoded() {
    assertThat(HtmlReport.link(Path.of("/shared/ws"), "/shared/ws/runs/r 1"))
        .isEqualTo("runs/r%201/");
    assertThat(HtmlReport.link(Path.of("/shared/ws/reports"), "/shared/ws/runs/r1"))
        .isEqualTo("../runs/r1/");
    assertThat(HtmlReport.link(null, "/shared/ws/runs/r1")).isEqualTo("file:///shared/ws/runs/r1");
  }

  @Test
  void axisTicksAreRound() {
    assertThat(HtmlReport.niceTicks(1.91814, 3.01552)).containsExactly(1.5, 2.0, 2.5, 3.0, 3.5);
    assertThat(HtmlReport.niceTicks(0.000347818, 0.000414129))
        .containsExactly(0.00034, 0.00036, 0.00038, 0.0004, 0.00042);
    double[] flat = HtmlReport.niceTicks(5, 5); // one value: a band around it
    assertThat(flat[0]).isLessThan(5);
    assertThat(flat[flat.length - 1]).isGreaterThan(5);
  }

  static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
