package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.screen.ScreenJudge.PairFigure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScreenJudgeTest {
  /** Pairs only, no single-node figures. */
  private static ScreenJudge.Verdict judge(List<String> nodes, List<PairFigure> pairs, double t) {
    return ScreenJudge.judge(
        nodes,
        List.of(),
        pairs,
        new Tolerances(t, java.util.Map.of()),
        java.util.Map.of(),
        java.util.Map.of());
  }

  private static List<String> nodes(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add("n" + i);
    }
    return out;
  }

  /** The ring's pairs, each at {@code bw} MB/s and 30 us unless {@code slow} says otherwise. */
  private static List<PairFigure> ring(List<String> nodes, double bw, String slowNode) {
    List<PairFigure> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      String a = nodes.get(i);
      String b = nodes.get((i + 1) % nodes.size());
      boolean slow = a.equals(slowNode) || b.equals(slowNode);
      out.add(new PairFigure(a, b, slow ? bw / 20 : bw * (1 + 0.01 * i), 30 + 0.1 * i));
    }
    return out;
  }

  @Test
  void healthy_nothingFlagged() {
    for (int n : new int[] {3, 4, 8}) {
      var v = judge(nodes(n), ring(nodes(n), 1000, null), 0.10);
      assertThat(v.clean()).as("n=%d", n).isTrue();
      assertThat(v.flaggedNodes()).isEmpty();
      assertThat(v.flaggedLinks()).isEmpty();
      assertThat(ScreenReport.verdictLine(v)).isEqualTo("nothing flagged on " + n + " nodes");
    }
  }

  @Test
  void oneNodeSlowInBothItsPairs_thatNodeAndNoOther_evenOnThreeNodes() {
    for (int n : new int[] {3, 4, 5, 8}) {
      var v = judge(nodes(n), ring(nodes(n), 1000, "n2"), 0.10);
      assertThat(v.flaggedNodes()).as("n=%d", n).containsExactly("n2");
      assertThat(v.flaggedLinks()).as("n=%d", n).isEmpty();
      var row = v.nodes().get(1).cells().get(Metric.BANDWIDTH);
      assertThat(row.ok()).isFalse();
      assertThat(row.deviation()).isLessThan(-0.9);
      assertThat(v.pairs()).filteredOn(p -> p.blame() != null).hasSize(2);
      assertThat(v.pairs())
          .filteredOn(p -> p.blame() != null)
          .allMatch(p -> "n2".equals(p.blame()));
    }
  }

  @Test
  void onePairSlowOnly_theLinkIsNamed_noNode() {
    List<String> ns = nodes(4);
    List<PairFigure> pairs = new ArrayList<>(ring(ns, 1000, null));
    pairs.set(2, new PairFigure("n3", "n4", 100, 30));
    var v = judge(ns, pairs, 0.10);
    assertThat(v.flaggedNodes()).isEmpty();
    assertThat(v.flaggedLinks())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.figure().a()).isEqualTo("n3");
              assertThat(p.figure().b()).isEqualTo("n4");
            });
    assertThat(ScreenReport.verdictLine(v)).isEqualTo("flagged: link n3-n4");
  }

  @Test
  void latencyIsWorseUpwards() {
    List<String> ns = nodes(4);
    List<PairFigure> pairs = new ArrayList<>();
    pairs.add(new PairFigure("n1", "n2", 1000, 30));
    pairs.add(new PairFigure("n2", "n3", 1000, 31));
    pairs.add(new PairFigure("n3", "n4", 1000, 90));
    pairs.add(new PairFigure("n4", "n1", 1000, 95));
    var v = judge(ns, pairs, 0.10);
    assertThat(v.flaggedNodes()).containsExactly("n4");
    assertThat(ScreenReport.verdictLine(v)).startsWith("flagged: node n4 (latency 90.0 us");
  }

  @Test
  void withinTolerance_notFlagged() {
    List<String> ns = nodes(4);
    List<PairFigure> pairs = new ArrayList<>(ring(ns, 1000, null));
    pairs.set(1, new PairFigure("n2", "n3", 920, 30));
    pairs.set(2, new PairFigure("n3", "n4", 920, 30));
    assertThat(judge(ns, pairs, 0.10).clean()).isTrue();
    assertThat(judge(ns, pairs, 0.05).flaggedNodes()).containsExactly("n3");
  }

  @Test
  void twoNodesAreOnePair_nothingCanBeBlamed() {
    var v = judge(nodes(2), List.of(new PairFigure("n1", "n2", 5, 500)), 0.10);
    assertThat(v.clean()).isTrue();
  }

  @Test
  void jsonNamesTheFlaggedNode() {
    var v = judge(nodes(3), ring(nodes(3), 1000, "n3"), 0.10);
    assertThat(ScreenReport.json(v))
        .contains("\"flaggedNodes\" : [ \"n3\" ]")
        .contains("\"flaggedLinks\" : [ ]");
    assertThat(ScreenReport.table(v)).contains("✗").contains("n3").contains("flagged: node n3");
  }

  /** Three healthy nodes' own figures, and one node's as given. */
  private static List<ScreenJudge.NodeFigure> own(String node, double gflops, double triad) {
    List<ScreenJudge.NodeFigure> out = new ArrayList<>();
    for (String n : nodes(4)) {
      out.add(
          n.equals(node)
              ? new ScreenJudge.NodeFigure(n, gflops, triad)
              : new ScreenJudge.NodeFigure(n, 2.0 + 0.01 * out.size(), 5000 - 10 * out.size()));
    }
    return out;
  }

  @Test
  void aNodeSlowAloneIsFlaggedOnThatMetric_noOther() {
    var v =
        ScreenJudge.judge(
            nodes(4),
            own("n3", 0.5, 5000),
            ring(nodes(4), 1000, null),
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of());
    assertThat(v.flaggedNodes()).containsExactly("n3");
    assertThat(v.flaggedLinks()).isEmpty();
    assertThat(v.metrics())
        .containsExactly(Metric.COMPUTE, Metric.MEMORY, Metric.BANDWIDTH, Metric.LATENCY);
    var cells = v.nodes().get(2).cells();
    assertThat(cells.get(Metric.COMPUTE).ok()).isFalse();
    assertThat(cells.get(Metric.MEMORY).ok()).isTrue();
    assertThat(ScreenReport.verdictLine(v))
        .isEqualTo("flagged: node n3 (compute 0.500 Gflop/s, median 2.01 Gflop/s, -75.1%)");
    assertThat(v.pairs()).allMatch(p -> p.blame() == null);
  }

  @Test
  void memoryToo_andANodeWithinToleranceIsNot() {
    var slowMemory =
        ScreenJudge.judge(
            nodes(4),
            own("n1", 2.0, 3000),
            ring(nodes(4), 1000, null),
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of());
    assertThat(slowMemory.flaggedNodes()).containsExactly("n1");
    var within =
        ScreenJudge.judge(
            nodes(4),
            own("n1", 1.85, 4600),
            ring(nodes(4), 1000, null),
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of());
    assertThat(within.clean()).isTrue();
  }

  @Test
  void theTableShowsEveryMetricAndTheMedians() {
    var v =
        ScreenJudge.judge(
            nodes(4),
            own("n3", 0.5, 5000),
            ring(nodes(4), 1000, null),
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of());
    String t = ScreenReport.table(v);
    assertThat(t.lines().findFirst().orElseThrow())
        .startsWith("NODE  COMPUTE (Gflop/s)       MEMORY (MB/s)           BANDWIDTH (MB/s)");
    assertThat(t)
        .contains("n3    ✗ 0.500 (-75.1%)")
        .contains("medians: compute 2.01 Gflop/s, memory 4995 MB/s, bandwidth 1025 MB/s")
        .contains("tolerance 10.0%");
  }

  @Test
  void junitHasACasePerNode_aFailureForTheFlagged_anErrorForOneThatDidNotRun() {
    var v = judge(nodes(3), ring(nodes(3), 1000, "n3"), 0.10);
    String x = ScreenReport.junit(v, java.util.Map.of(), java.time.Instant.EPOCH);
    assertThat(x)
        .contains("<testsuite name=\"clusterrun screen\" tests=\"3\" failures=\"1\" errors=\"0\"")
        .contains("<testcase classname=\"screen\" name=\"node n1\"/>")
        .contains("<testcase classname=\"screen\" name=\"node n3\">")
        .contains("<failure message=\"bandwidth 50.0 MB/s, median 1000 MB/s, -95.0%\"/>");
    String notRun =
        ScreenReport.junit(
            null, java.util.Map.of("n2", "no figure <run r>"), java.time.Instant.EPOCH);
    assertThat(notRun)
        .contains("tests=\"1\" failures=\"0\" errors=\"1\"")
        .contains("<error message=\"no figure &lt;run r&gt;\"/>");
  }

  @Test
  void aDeviationWithinTheRepeatsOwnSpreadIsNotAFinding() {
    var ns = nodes(3);
    var pairs =
        List.of(
            new PairFigure("n1", "n2", 1000, 10),
            new PairFigure("n2", "n3", 850, 10),
            new PairFigure("n3", "n1", 1000, 10));
    // 15 % slower than the median: over the 10 % tolerance, but the repeats differed by 20 %.
    var noisy =
        ScreenJudge.judge(
            ns,
            List.of(),
            pairs,
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of(Metric.BANDWIDTH, 0.20));
    assertThat(noisy.clean()).isTrue();
    // Steady repeats (2 %): the same figure is a slow link.
    var steady =
        ScreenJudge.judge(
            ns,
            List.of(),
            pairs,
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            java.util.Map.of(Metric.BANDWIDTH, 0.02));
    assertThat(steady.flaggedLinks()).hasSize(1);
    // Far beyond the noise: still flagged.
    var slow =
        List.of(
            new PairFigure("n1", "n2", 1000, 10),
            new PairFigure("n2", "n3", 300, 10),
            new PairFigure("n3", "n1", 1000, 10));
    assertThat(
            ScreenJudge.judge(
                    ns,
                    List.of(),
                    slow,
                    new Tolerances(0.10, java.util.Map.of()),
                    java.util.Map.of(),
                    java.util.Map.of(Metric.BANDWIDTH, 0.20))
                .flaggedLinks())
        .hasSize(1);
  }

  @Test
  void aToleranceForOneMetric_holdsForThatMetricOnly() {
    var ns = nodes(3);
    // n3's compute 15 % under the median and the link n2-n3 15 % under its median.
    var own = own("n3", 1.7, 5000);
    var pairs =
        List.of(
            new PairFigure("n1", "n2", 1000, 10),
            new PairFigure("n2", "n3", 850, 10),
            new PairFigure("n3", "n1", 1000, 10));
    var all10 =
        ScreenJudge.judge(
            ns, own, pairs, new Tolerances(0.10, java.util.Map.of()), Map.of(), Map.of());
    assertThat(all10.flaggedNodes()).containsExactly("n3");
    assertThat(all10.flaggedLinks()).hasSize(1);
    var bw20 =
        ScreenJudge.judge(
            ns, own, pairs, Tolerances.parse(List.of("10%", "bandwidth=20%")), Map.of(), Map.of());
    assertThat(bw20.flaggedNodes()).containsExactly("n3");
    assertThat(bw20.flaggedLinks()).isEmpty();
    assertThat(bw20.toleranceOf(Metric.BANDWIDTH)).isEqualTo(0.20);
    assertThat(ScreenReport.table(bw20)).contains("; tolerance 10.0% (bandwidth 20.0%)");
    assertThat(ScreenReport.json(bw20)).contains("\"bandwidth\" : 0.2");
  }

  @Test
  void aFigureBelowItsReference_isFlaggedWithTheReferenceNamed_thoughAtTheMedian() {
    var ns = nodes(3);
    // Every node alike (nothing off the median), but n3's compute under the expected 2.5.
    var own =
        List.of(
            new ScreenJudge.NodeFigure("n1", 2.6, 5000),
            new ScreenJudge.NodeFigure("n2", 2.5, 5000),
            new ScreenJudge.NodeFigure("n3", 2.2, 5000));
    var expected =
        Map.of(
            Metric.COMPUTE,
            new ScreenJudge.Expected(2.5, 0.05, "ci/screen at refs.yaml:6:20"),
            Metric.BANDWIDTH,
            new ScreenJudge.Expected(1000, null, "ci/screen at refs.yaml:7:22"));
    var v =
        ScreenJudge.judge(
            ns,
            own,
            ring(ns, 1000, null),
            new Tolerances(0.20, java.util.Map.of()),
            expected,
            Map.of());
    assertThat(v.flaggedNodes()).containsExactly("n3");
    assertThat(v.flaggedLinks()).isEmpty();
    assertThat(ScreenReport.verdictLine(v))
        .isEqualTo(
            "flagged: node n3 (compute 2.20 Gflop/s, median 2.50 Gflop/s, -12.0%, reference 2.50"
                + " Gflop/s (ci/screen at refs.yaml:6:20), -12.0%)");
    assertThat(ScreenReport.table(v))
        .contains(
            "references: compute 2.50 Gflop/s -5.00% (ci/screen at refs.yaml:6:20); bandwidth"
                + " 1000 MB/s -20.0% (ci/screen at refs.yaml:7:22)");
    // The whole network under its reference: every node's two pairs miss it, every node flagged.
    var slowNet =
        ScreenJudge.judge(
            ns,
            own,
            ring(ns, 500, null),
            new Tolerances(0.20, java.util.Map.of()),
            expected,
            Map.of());
    assertThat(slowNet.flaggedNodes()).containsExactly("n1", "n2", "n3");
    assertThat(ScreenReport.json(slowNet)).contains("\"offReference\"");
  }
}
