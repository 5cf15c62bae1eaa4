package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The screen program's lines as screen.c's header documents them. */
class ScreenParserTest {
  static final String OUTPUT =
      "clusterrun-screen begin nodes=3 ranks=4 repeat=2\n"
          + "clusterrun-screen node=0 host=node1 ranks=2\n"
          + "clusterrun-screen node=1 host=node2 ranks=1\n"
          + "some warning from a rank\n"
          + "clusterrun-screen node=2 host=node3 ranks=1\n"
          + "clusterrun-screen node=0 rep=1 dgemm_Gflops=1.612 triad_MBps=2716.6\n"
          + "clusterrun-screen node=0 rep=2 dgemm_Gflops=1.383 triad_MBps=1962.0\r\n"
          + "[1,0]<stdout>:clusterrun-screen node=1 rep=1 dgemm_Gflops=1.6 triad_MBps=2.5e3\n"
          + "clusterrun-screen pair=0-1 rep=1 bandwidth_MBps=812.50 latency_us=31.20\n"
          + "clusterrun-screen pair=2-0 rep=2 bandwidth_MBps=-1.00 latency_us=-1.00\n"
          + "clusterrun-screen end\n";

  @Test
  void readsEveryLine_withOrWithoutOpenMpisTag() {
    ScreenParser.Output o = ScreenParser.parse(OUTPUT);
    assertThat(o.begun()).isTrue();
    assertThat(o.ended()).isTrue();
    assertThat(o.nodes())
        .containsExactly(
            new ScreenParser.NodeSeen(0, "node1", 2),
            new ScreenParser.NodeSeen(1, "node2", 1),
            new ScreenParser.NodeSeen(2, "node3", 1));
    assertThat(o.nodeReps())
        .containsExactly(
            new ScreenParser.NodeRep(0, 1, 1.612, 2716.6),
            new ScreenParser.NodeRep(0, 2, 1.383, 1962.0),
            new ScreenParser.NodeRep(1, 1, 1.6, 2500.0));
    assertThat(o.pairReps())
        .containsExactly(
            new ScreenParser.PairRep(0, 1, 1, 812.5, 31.2),
            new ScreenParser.PairRep(2, 0, 2, -1, -1));
  }

  @Test
  void withoutItsEndLine_theOutputIsNotComplete() {
    String cut = OUTPUT.substring(0, OUTPUT.indexOf("clusterrun-screen end"));
    assertThat(ScreenParser.parse(cut).ended()).isFalse();
    assertThat(ScreenParser.parse("clusterrun-screen end\n").ended())
        .as("an end without a begin")
        .isFalse();
    assertThat(ScreenParser.parse(null).ended()).isFalse();
  }

  @Test
  void aTruncatedOrForeignLineIsNoFigure() {
    ScreenParser.Output o =
        ScreenParser.parse(
            "clusterrun-screen pair=0-1 rep=1 bandwidth_MBps=812.50\n"
                + "xclusterrun-screen pair=0-1 rep=1 bandwidth_MBps=1 latency_us=2\n"
                + "clusterrun-screen node=99999999999 rep=1 dgemm_Gflops=1 triad_MBps=2\n");
    assertThat(o.pairReps()).isEmpty();
    assertThat(o.nodeReps()).isEmpty();
  }
}
