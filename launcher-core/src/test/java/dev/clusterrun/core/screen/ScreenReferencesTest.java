package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScreenReferencesTest {
  @TempDir Path dir;

  private Path file(String yaml) throws Exception {
    Path f = dir.resolve("refs.yaml");
    Files.writeString(f, yaml);
    return f;
  }

  @Test
  void theScreenEntryOfTheCluster_byLabelOrLogName_theBadSideOfItsBounds() throws Exception {
    Path f =
        file(
            "clusters:\n"
                + "  rack-a:\n"
                + "    screen:\n"
                + "      - metrics:\n"
                + "          compute: {value: 40, lower: -15%, upper: +50%, unit: Gflop/s}\n"
                + "          bandwidth_MBps: {value: 11000}\n"
                + "          latency: {value: 3.5, lower: -50%, upper: +30%, unit: us}\n"
                + "    hpcc:\n"
                + "      - metrics:\n"
                + "          HPL: {value: 3}\n");
    var e = ScreenReferences.read(f, "rack-a", 8);
    assertThat(e).containsOnlyKeys(Metric.COMPUTE, Metric.BANDWIDTH, Metric.LATENCY);
    assertThat(e.get(Metric.COMPUTE).value()).isEqualTo(40);
    assertThat(e.get(Metric.COMPUTE).bar()).isEqualTo(0.15);
    assertThat(e.get(Metric.BANDWIDTH).bar()).isNull();
    assertThat(e.get(Metric.LATENCY).bar()).isEqualTo(0.30);
    assertThat(e.get(Metric.COMPUTE).where()).isEqualTo("rack-a/screen at " + f + ":5:11");
  }

  @Test
  void aMetricTheScreenDoesNotMeasure_anotherUnit_noEntry_badInputNamingTheFile() throws Exception {
    Path unknown =
        file("clusters:\n  '*':\n    screen:\n      - metrics:\n          HPL: {value: 3}\n");
    assertThatThrownBy(() -> ScreenReferences.read(unknown, "x", 3))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(unknown + ":5:")
        .hasMessageContaining("screen measures no metric 'HPL'");
    Path unit =
        file(
            "clusters:\n  '*':\n    screen:\n      - metrics:\n"
                + "          bandwidth: {value: 3, unit: GB/s}\n");
    assertThatThrownBy(() -> ScreenReferences.read(unit, "x", 3))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("screen measures bandwidth in MB/s, not GB/s");
    Path none =
        file(
            "clusters:\n  rack-b:\n    screen:\n      - nodes: 4\n        metrics:\n"
                + "          bandwidth: {value: 3}\n");
    assertThatThrownBy(() -> ScreenReferences.read(none, "rack-a", 3))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--references: " + none)
        .hasMessageContaining("has no reference for screen on cluster 'rack-a'");
  }
}
