package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.BadInputException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  static BenchResult run(String id, String when, double gflops, double latency, Verdict v) {
    return BenchResult.builder("hpcc")
        .verdict(v)
        .reason(v == Verdict.PASSED ? null : "MPIRandomAccess: Found 31457 errors (failed)")
        .headline(new Metric("HPL", gflops, "Gflops"))
        .metric("MaxPingPongLatency_usec", latency)
        .metric("CommWorldProcs", 3)
        .metric("MPIRandomAccess_Errors", 0)
        .n(960L)
        .nodes(List.of("node1", "node2", "node3"))
        .ranks(3)
        .startTime(Instant.parse(when))
        .cluster("ci")
        .runId(id)
        .runDir("/ws/runs/" + id)
        .build();
  }

  static List<BenchResult> week() {
    List<BenchResult> l = new ArrayList<>();
    l.add(run("r1", "2026-11-16T02:00:00Z", 4.0, 20, Verdict.PASSED));
    l.add(run("r2", "2026-11-17T02:00:00Z", 4.4, 22, Verdict.PASSED));
    l.add(run("r3", "2026-11-18T02:00:00Z", 1.0, 90, Verdict.FAILED));
    l.add(run("r4", "2026-11-19T02:00:00Z", 3.8, 24, Verdict.PASSED));
    l.add(run("r5", "2026-11-20T02:00:00Z", 3.6, 30, Verdict.PASSED));
    return l;
  }

  static Comparison.Options opts(References refs) {
    return new Comparison.Options(5, Set.of(), refs);
  }

  @Test
  void eachMetricGetsFirstLastMeanMedianChangeAndVerdictOverThePassedRuns() {
    List<Comparison.Row> rows = Comparison.rows(week(), opts(null));
    // the headline first, then performance metrics; the run's shape and error counts are left out
    assertThat(rows)
        .extracting(Comparison.Row::metric)
        .containsExactly("HPL", "MaxPingPongLatency_usec");
    Comparison.Row hpl = rows.get(0);
    assertThat(hpl.group().label()).isEqualTo("hpcc on ci: 3 nodes, 3 ranks, N=960");
    assertThat(hpl.unit()).isEqualTo("Gflops");
    assertThat(hpl.runs()).isEqualTo(5);
    assertThat(hpl.failed()).isEqualTo(1);
    assertThat(hpl.first()).isEqualTo(4.0);
    assertThat(hpl.last()).isEqualTo(3.6);
    assertThat(hpl.mean()).isCloseTo(3.95, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(hpl.median()).isCloseTo(3.9, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(hpl.changePercent()).isEqualTo(-10.0);
    assertThat(hpl.verdict()).isEqualTo(Comparison.REGRESSED);
    // latency went up by 50 %: lower is better, so that is a regression too
    assertThat(rows.get(1).changePercent()).isEqualTo(50.0);
    assertThat(rows.get(1).verdict()).isEqualTo(Comparison.REGRESSED);

    // within the allowed change: steady; the other way: improved
    assertThat(Comparison.rows(week(), new Comparison.Options(10, Set.of("HPL"), null)))
        .singleElement()
        .extracting(Comparison.Row::verdict)
        .isEqualTo(Comparison.STEADY);
    List<BenchResult> better = week().subList(0, 2);
    assertThat(Comparison.rows(better, opts(null)).get(0).verdict()).isEqualTo(Comparison.IMPROVED);
  }

  @Test
  void aReferenceDecidesTheVerdictOfTheLastRun() {
    References refs =
        References.parse(
            "clusters:\n  ci:\n    hpcc:\n      - nodes: 3\n        metrics:\n"
                + "          HPL: {value: 4.0, lower: -15%, unit: Gflops}\n",
            "refs.yaml");
    Comparison.Row hpl = Comparison.rows(week(), opts(refs)).get(0);
    assertThat(hpl.verdict()).isEqualTo(Comparison.WITHIN); // 3.6 >= 3.4
    assertThat(hpl.reference().describe()).isEqualTo("[3.4, +inf] (4 Gflops -15%/+inf)");
    References tight =
        References.parse(
            "clusters:\n  ci:\n    hpcc:\n      - metrics:\n          HPL: {value: 4.0, lower: -5%}\n",
            "refs.yaml");
    Comparison.Row off = Comparison.rows(week(), opts(tight)).get(0);
    assertThat(off.verdict()).isEqualTo(Comparison.OUTSIDE);
    assertThat(off.bad()).isTrue();
  }

  @Test
  void groupsKeepDifferentSizesAndClustersApart() {
    List<BenchResult> l = new ArrayList<>(week());
    l.add(week().get(0).toBuilder().n(1920L).runId("big").build());
    l.add(week().get(0).toBuilder().cluster("lab").runId("lab").build());
    assertThat(Comparison.groups(l).keySet())
        .extracting(Comparison.Group::label)
        .containsExactly(
            "hpcc on ci: 3 nodes, 3 ranks, N=960",
            "hpcc on ci: 3 nodes, 3 ranks, N=1920",
            "hpcc on lab: 3 nodes, 3 ranks, N=960");
    assertThat(Comparison.only(l, "hpcc", "lab"))
        .extracting(BenchResult::runId)
        .containsExactly("lab");
    assertThat(Comparison.only(l, "hpl", null)).isEmpty();
  }

  @Test
  void runsAreChosenByAgeDateOrId() {
    Instant now = Instant.parse("2026-11-20T12:00:00Z");
    assertThat(Comparison.since("7d", now)).isEqualTo(Instant.parse("2026-11-13T12:00:00Z"));
    assertThat(Comparison.since("12h", now)).isEqualTo(Instant.parse("2026-11-20T00:00:00Z"));
    assertThat(Comparison.since("2w", now)).isEqualTo(Instant.parse("2026-11-06T12:00:00Z"));
    assertThat(Comparison.since("2026-11-18", now))
        .isEqualTo(Instant.parse("2026-11-18T00:00:00Z"));
    assertThatThrownBy(() -> Comparison.since("last week", now))
        .hasMessage(
            "'last week' is not an age (30m, 12h, 7d, 2w), a date (2026-11-01) or an instant"
                + " (2026-11-01T08:00:00Z)");
    assertThat(Comparison.since(week(), Comparison.since("2d", now)))
        .extracting(BenchResult::runId)
        .containsExactly("r4", "r5");

    List<BenchResult> two = Comparison.byRunIds(week(), List.of("r5", "r1"), "RUN_ID");
    assertThat(two).extracting(BenchResult::runId).containsExactly("r5", "r1");
    assertThatThrownBy(() -> Comparison.byRunIds(week(), List.of("r9"), "RUN_ID"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("RUN_ID: no run r9 in the results log; did you mean 'r1'?");
  }

  @Test
  void textAndJsonShowEveryRow() throws Exception {
    List<Comparison.Row> rows = Comparison.rows(week(), opts(null));
    assertThat(Comparison.text(rows))
        .containsExactly(
            "hpcc on ci: 3 nodes, 3 ranks, N=960",
            "  METRIC                   UNIT    RUNS  FAILED  FIRST  LAST  MEAN  MEDIAN  CHANGE "
                + "  VERDICT",
            "  HPL                      Gflops  5     1       4      3.6   3.95  3.9     -10.00% "
                + " regressed",
            "  MaxPingPongLatency_usec  usec    5     1       20     30    24    23      +50.00% "
                + " regressed");
    JsonNode j = new ObjectMapper().readTree(Comparison.json(rows));
    assertThat(j.size()).isEqualTo(2);
    assertThat(j.get(0).get("cluster").asText()).isEqualTo("ci");
    assertThat(j.get(0).get("metric").asText()).isEqualTo("HPL");
    assertThat(j.get(0).get("median").asDouble()).isEqualTo(3.9);
    assertThat(j.get(0).get("changePercent").asDouble()).isEqualTo(-10.0);
    assertThat(j.get(0).get("verdict").asText()).isEqualTo("regressed");
    assertThat(j.get(0).get("reference").isNull()).isTrue();
    assertThat(Comparison.text(List.of())).containsExactly("(no runs to compare)");
  }
}
