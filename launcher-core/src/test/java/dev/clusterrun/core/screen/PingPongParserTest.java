package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PingPongParserTest {
  @Test
  void readsEveryPairsLine_withOrWithoutOpenMpisTag() {
    String out =
        "clusterrun-screen pair=0-1 host=n1 peer=n2 bandwidth_MBps=812.50 latency_us=31.20\n"
            + "some warning from a rank\n"
            + "[1,2]<stdout>:clusterrun-screen pair=2-3 host=n3 peer=n4 bandwidth_MBps=6.25"
            + " latency_us=1.5e2\r\n";
    var m = PingPongParser.parse(out);
    assertThat(m).containsOnlyKeys(0, 2);
    assertThat(m.get(0)).isEqualTo(new PingPongParser.Measured(0, 1, 812.5, 31.2));
    assertThat(m.get(2)).isEqualTo(new PingPongParser.Measured(2, 3, 6.25, 150.0));
  }

  @Test
  void aTruncatedOrForeignLineIsNoFigure() {
    assertThat(
            PingPongParser.parse(
                "clusterrun-screen pair=0-1 host=n1 peer=n2 bandwidth_MBps=812.50\n"
                    + "xclusterrun-screen pair=0-1 host=a peer=b bandwidth_MBps=1 latency_us=2\n"))
        .isEmpty();
    assertThat(PingPongParser.parse(null)).isEmpty();
  }
}
