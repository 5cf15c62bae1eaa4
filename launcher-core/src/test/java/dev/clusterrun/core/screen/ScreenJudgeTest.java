package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.screen.ScreenJudge.PairFigure;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScreenJudgeTest {
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
      var v = ScreenJudge.judge(nodes(n), ring(nodes(n), 1000, null), 0.10);
      assertThat(v.clean()).as("n=%d", n).isTrue();
      assertThat(v.flaggedNodes()).isEmpty();
      assertThat(v.flaggedLinks()).isEmpty();
      assertThat(ScreenReport.verdictLine(v)).isEqualTo("nothing flagged on " + n + " nodes");
    }
  }

  @Test
  void oneNodeSlowInBothItsPairs_thatNodeAndNoOther_evenOnThreeNodes() {
    for (int n : new int[] {3, 4, 5, 8}) {
      var v = ScreenJudge.judge(nodes(n), ring(nodes(n), 1000, "n2"), 0.10);
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
    var v = ScreenJudge.judge(ns, pairs, 0.10);
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
    var v = ScreenJudge.judge(ns, pairs, 0.10);
    assertThat(v.flaggedNodes()).containsExactly("n4");
    assertThat(ScreenReport.verdictLine(v)).startsWith("flagged: node n4 (latency 90.0 us");
  }

  @Test
  void withinTolerance_notFlagged() {
    List<String> ns = nodes(4);
    List<PairFigure> pairs = new ArrayList<>(ring(ns, 1000, null));
    pairs.set(1, new PairFigure("n2", "n3", 920, 30));
    pairs.set(2, new PairFigure("n3", "n4", 920, 30));
    assertThat(ScreenJudge.judge(ns, pairs, 0.10).clean()).isTrue();
    assertThat(ScreenJudge.judge(ns, pairs, 0.05).flaggedNodes()).containsExactly("n3");
  }

  @Test
  void twoNodesAreOnePair_nothingCanBeBlamed() {
    var v = ScreenJudge.judge(nodes(2), List.of(new PairFigure("n1", "n2", 5, 500)), 0.10);
    assertThat(v.clean()).isTrue();
  }

  @Test
  void jsonNamesTheFlaggedNode() {
    var v = ScreenJudge.judge(nodes(3), ring(nodes(3), 1000, "n3"), 0.10);
    assertThat(ScreenReport.json(v))
        .contains("\"flaggedNodes\" : [ \"n3\" ]")
        .contains("\"flaggedLinks\" : [ ]");
    assertThat(ScreenReport.table(v)).contains("✗").contains("n3").contains("flagged: node n3");
  }
}
