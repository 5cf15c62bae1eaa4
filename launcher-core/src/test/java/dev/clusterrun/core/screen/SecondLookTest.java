package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.screen.ScreenJudge.NodeFigure;
import dev.clusterrun.core.screen.ScreenJudge.PairFigure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The second look: what a first measurement flagged is measured again, and only a figure slow both
 * times stays flagged, against the first measurement's medians.
 */
class SecondLookTest {
  static final List<String> NODES = List.of("n1", "n2", "n3", "n4");
  static final Tolerances TEN = new Tolerances(0.10, Map.of());

  static List<NodeFigure> own(String slow) {
    List<NodeFigure> out = new ArrayList<>();
    for (String n : NODES) {
      out.add(new NodeFigure(n, n.equals(slow) ? 2 : 10, 20000));
    }
    return out;
  }

  /** The ring n1-n2, n2-n3, n3-n4, n4-n1 at 1000 MB/s, but {@code slowPair} at 100. */
  static List<PairFigure> ring(String slowPair) {
    List<PairFigure> out = new ArrayList<>();
    for (int i = 0; i < NODES.size(); i++) {
      String a = NODES.get(i);
      String b = NODES.get((i + 1) % NODES.size());
      out.add(new PairFigure(a, b, (a + "-" + b).equals(slowPair) ? 100 : 1000, 20));
    }
    return out;
  }

  static ScreenJudge.Verdict first(List<NodeFigure> own, List<PairFigure> pairs) {
    return ScreenJudge.judge(NODES, own, pairs, TEN, Map.of(), Map.of());
  }

  static ScreenFigures figures(List<NodeFigure> own, List<PairFigure> pairs) {
    return new ScreenFigures(own, pairs, Map.of(), Map.of());
  }

  static Hostfile hostfile() {
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < NODES.size(); i++) {
      hosts.add(new Host(NODES.get(i), 2, true, 2, i + 1));
    }
    return new Hostfile("hosts.txt", hosts);
  }

  @Test
  void nothingFlagged_noSecondLook() {
    assertThat(SecondLook.of(first(own(null), ring(null)))).isNull();
  }

  @Test
  void aSlowLink_isMeasuredAloneOnItsTwoNodes_andClearsWhenTheSecondLookIsFast() {
    List<PairFigure> pairs = ring("n2-n3");
    ScreenJudge.Verdict v = first(own(null), pairs);
    assertThat(ScreenReport.verdictLine(v)).isEqualTo("flagged: link n2-n3");
    SecondLook look = SecondLook.of(v);
    Hostfile sub = look.hostfile(hostfile());
    assertThat(sub.names()).containsExactly("n2", "n3");
    assertThat(sub.hosts().get(0).slots()).isEqualTo(2);
    assertThat(PairRounds.argument(look.rounds(sub))).isEqualTo("0-1");
    assertThat(look.describe()).isEqualTo("n2-n3 alone");

    ScreenFigures again = figures(List.of(), List.of(new PairFigure("n2", "n3", 990, 25)));
    SecondLook.Merged m = look.merge(NODES, figures(own(null), pairs), again);
    ScreenJudge.Verdict after = ScreenJudge.again(v, m.figures(), TEN, m.rechecks());
    assertThat(after.clean()).isTrue();
    assertThat(after.references()).isEqualTo(v.references());
    assertThat(after.rechecks())
        .containsExactly(new ScreenJudge.Recheck("n2-n3", Metric.BANDWIDTH, 100, 990));
    // the better of the two of each figure: the latency measured first (20 us) stays
    assertThat(after.pairs().get(1).figure().latencyUs()).isEqualTo(20);
    assertThat(ScreenReport.table(after))
        .contains(
            "second look (flagged at first, measured again; the better kept):"
                + " n2-n3 bandwidth 100 → 990 MB/s")
        .contains("nothing flagged on 4 nodes");
    assertThat(ScreenReport.json(after))
        .contains("\"secondLook\" : [ {")
        .contains("\"subject\" : \"n2-n3\"");
  }

  @Test
  void aLinkSlowTheSecondTimeToo_staysFlagged() {
    List<PairFigure> pairs = ring("n2-n3");
    ScreenJudge.Verdict v = first(own(null), pairs);
    SecondLook look = SecondLook.of(v);
    ScreenFigures again = figures(List.of(), List.of(new PairFigure("n2", "n3", 120, 20)));
    SecondLook.Merged m = look.merge(NODES, figures(own(null), pairs), again);
    ScreenJudge.Verdict after = ScreenJudge.again(v, m.figures(), TEN, m.rechecks());
    assertThat(ScreenReport.verdictLine(after)).isEqualTo("flagged: link n2-n3");
    assertThat(after.pairs().get(1).figure().bandwidthMBps()).isEqualTo(120);
  }

  @Test
  void aSlowNode_isMeasuredAgainWithoutPairs_andStaysFlaggedWhenStillSlow() {
    ScreenJudge.Verdict v = first(own("n3"), ring(null));
    assertThat(v.flaggedNodes()).containsExactly("n3");
    SecondLook look = SecondLook.of(v);
    Hostfile sub = look.hostfile(hostfile());
    assertThat(sub.names()).containsExactly("n3");
    assertThat(PairRounds.argument(look.rounds(sub))).isEqualTo("-");
    assertThat(look.describe()).isEqualTo("the own figures of n3");

    ScreenFigures again = figures(List.of(new NodeFigure("n3", 2.5, 21000)), List.of());
    SecondLook.Merged m = look.merge(NODES, figures(own("n3"), ring(null)), again);
    ScreenJudge.Verdict after = ScreenJudge.again(v, m.figures(), TEN, m.rechecks());
    assertThat(after.flaggedNodes()).containsExactly("n3");
    // only the metric that was slow is reported as measured again; both take the better figure
    assertThat(after.rechecks())
        .containsExactly(new ScreenJudge.Recheck("n3", Metric.COMPUTE, 2, 2.5));
    assertThat(after.nodes().get(2).cells().get(Metric.MEMORY).value()).isEqualTo(21000);
  }

  @Test
  void aSecondLookThatGaveNoFigure_leavesTheFirstStanding() {
    ScreenJudge.Verdict v = first(own("n3"), ring("n1-n2"));
    SecondLook look = SecondLook.of(v);
    assertThat(look.hostfile(hostfile()).names()).containsExactly("n1", "n2", "n3");
    assertThat(look.describe()).isEqualTo("the own figures of n3, then n1-n2 alone");
    SecondLook.Merged m =
        look.merge(NODES, figures(own("n3"), ring("n1-n2")), figures(List.of(), List.of()));
    ScreenJudge.Verdict after = ScreenJudge.again(v, m.figures(), TEN, m.rechecks());
    assertThat(after.rechecks()).isEmpty();
    assertThat(ScreenReport.verdictLine(after)).isEqualTo(ScreenReport.verdictLine(v));
  }
}
