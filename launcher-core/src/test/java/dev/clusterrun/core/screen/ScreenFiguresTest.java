package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScreenFiguresTest {
  static final List<String> NAMES = List.of("node1", "node2", "node3");
  static final List<PairRounds.Pair> PAIRS =
      PairRounds.rounds(3).stream().flatMap(List::stream).toList();

  @Test
  void theBestOfTheRepeats_byHostfileName_withHowFarApartTheyWere() {
    String out =
        "clusterrun-screen begin nodes=3 ranks=3 repeat=2\n"
            + "clusterrun-screen node=0 rep=1 dgemm_Gflops=1.0 triad_MBps=2000\n"
            + "clusterrun-screen node=0 rep=2 dgemm_Gflops=2.0 triad_MBps=1000\n"
            + "clusterrun-screen node=1 rep=1 dgemm_Gflops=2.0 triad_MBps=2000\n"
            + "clusterrun-screen node=2 rep=1 dgemm_Gflops=2.0 triad_MBps=2000\n"
            + "clusterrun-screen pair=0-1 rep=1 bandwidth_MBps=800 latency_us=40\n"
            + "clusterrun-screen pair=0-1 rep=2 bandwidth_MBps=1000 latency_us=50\n"
            + "clusterrun-screen pair=1-2 rep=1 bandwidth_MBps=1000 latency_us=30\n"
            + "clusterrun-screen pair=2-0 rep=1 bandwidth_MBps=1000 latency_us=30\n"
            + "clusterrun-screen end\n";
    ScreenFigures f = ScreenFigures.of(ScreenParser.parse(out), NAMES, PAIRS, "run r");
    assertThat(f.missing()).isEmpty();
    assertThat(f.nodes().get(0)).isEqualTo(new ScreenJudge.NodeFigure("node1", 2.0, 2000));
    assertThat(f.pairs().get(0)).isEqualTo(new ScreenJudge.PairFigure("node1", "node2", 1000, 40));
    assertThat(f.pairs().get(2)).isEqualTo(new ScreenJudge.PairFigure("node3", "node1", 1000, 30));
    assertThat(f.spreads().get(Metric.COMPUTE)).isEqualTo(0.5);
    assertThat(f.spreads().get(Metric.BANDWIDTH)).isEqualTo(0.2);
    assertThat(f.spreads().get(Metric.LATENCY)).isEqualTo(0.25);
  }

  @Test
  void aPairWithoutAFigure_namesBothItsNodes() {
    String out =
        "clusterrun-screen begin nodes=3 ranks=3 repeat=1\n"
            + "clusterrun-screen node=0 rep=1 dgemm_Gflops=1.0 triad_MBps=2000\n"
            + "clusterrun-screen node=1 rep=1 dgemm_Gflops=2.0 triad_MBps=2000\n"
            + "clusterrun-screen node=2 rep=1 dgemm_Gflops=2.0 triad_MBps=2000\n"
            + "clusterrun-screen pair=0-1 rep=1 bandwidth_MBps=800 latency_us=40\n"
            + "clusterrun-screen pair=1-2 rep=1 bandwidth_MBps=-1.00 latency_us=-1.00\n"
            + "clusterrun-screen pair=2-0 rep=1 bandwidth_MBps=1000 latency_us=30\n"
            + "clusterrun-screen end\n";
    ScreenFigures f = ScreenFigures.of(ScreenParser.parse(out), NAMES, PAIRS, "run r");
    assertThat(f.missing())
        .containsOnlyKeys("node2", "node3")
        .containsValue("the pair node2-node3 gave no figure (run r)");
  }

  @Test
  void noEndLine_everyNodeIsNamed() {
    ScreenFigures f =
        ScreenFigures.of(
            ScreenParser.parse("clusterrun-screen begin nodes=3 ranks=3 repeat=1\n"),
            NAMES,
            PAIRS,
            "run r FAILED, exit 1");
    assertThat(f.missing())
        .containsOnlyKeys(NAMES)
        .containsValue("the screen program gave no figures (run r FAILED, exit 1)");
  }
}
