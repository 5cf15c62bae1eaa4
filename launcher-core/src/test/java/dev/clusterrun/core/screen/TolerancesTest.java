package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class TolerancesTest {
  @Test
  void oneForEveryMetric_onePerMetric_commasOrRepeatedFlags_theLaterWins() {
    assertThat(Tolerances.parse(List.of())).isEqualTo(Tolerances.DEFAULT);
    Tolerances t = Tolerances.parse(List.of("5%,bandwidth=15%", "latency=50", "bandwidth=20%"));
    assertThat(t.of(Metric.COMPUTE)).isEqualTo(0.05);
    assertThat(t.of(Metric.MEMORY)).isEqualTo(0.05);
    assertThat(t.of(Metric.BANDWIDTH)).isEqualTo(0.20);
    assertThat(t.of(Metric.LATENCY)).isEqualTo(0.50);
    // a metric by its name in the results log too
    assertThat(Tolerances.parse(List.of("triad_MBps=30%")).of(Metric.MEMORY)).isEqualTo(0.30);
    assertThat(Tolerances.parse(List.of("Compute=30%")).of(Metric.COMPUTE)).isEqualTo(0.30);
  }

  @Test
  void badValues_badInputNamingTheFlagAndTheValue() {
    assertThatThrownBy(() -> Tolerances.parse(List.of("bandwith=15%")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--tolerance: 'bandwith=15%': 'bandwith' is not a metric")
        .hasMessageContaining("compute, memory, bandwidth, latency")
        .hasMessageContaining("did you mean 'bandwidth'?");
    for (String bad : new String[] {"bandwidth=0", "latency=", "100%", "10%,", "=10%", "x"}) {
      assertThatThrownBy(() -> Tolerances.parse(List.of(bad)))
          .as(bad)
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith("--tolerance: ");
    }
  }
}
