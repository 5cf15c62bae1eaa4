package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.Comparison;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.Verdict;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.launch.run.RunSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A screen in the results log, read back as `results` reads it. */
class ScreenRecordTest {
  @TempDir Path dir;

  @Test
  void everyNodesFiguresAndTheMediansAreMetrics_aFlaggedScreenStillPasses() throws Exception {
    List<String> nodes = List.of("n1", "n2", "n3");
    List<ScreenJudge.PairFigure> pairs =
        List.of(
            new ScreenJudge.PairFigure("n1", "n2", 1000, 30),
            new ScreenJudge.PairFigure("n2", "n3", 50, 31),
            new ScreenJudge.PairFigure("n3", "n1", 40, 32));
    List<ScreenJudge.NodeFigure> own =
        List.of(
            new ScreenJudge.NodeFigure("n1", 2, 4000),
            new ScreenJudge.NodeFigure("n2", 2, 4000),
            new ScreenJudge.NodeFigure("n3", 2, 4000));
    var v =
        ScreenJudge.judge(
            nodes,
            own,
            pairs,
            new Tolerances(0.10, java.util.Map.of()),
            java.util.Map.of(),
            Map.of());
    assertThat(v.flaggedNodes()).containsExactly("n3");
    RunSummary s =
        RunSummary.builder()
            .plan(
                Plan.builder()
                    .runId("20261127-080000-screen-abcd")
                    .runDir("/ws/runs/20261127-080000-screen-abcd")
                    .nodes(nodes)
                    .np(3)
                    .image("docker://reg#img")
                    .build())
            .ended(RunEnd.SUCCEEDED, 0)
            .times("2026-11-27T08:00:00Z", "2026-11-27T08:01:00Z")
            .build();
    String said = ScreenRecord.append(v, s, "rack-a", dir);
    assertThat(said).isEqualTo("appended to " + dir.resolve("results.jsonl"));
    List<BenchResult> back = ResultsLog.inWorkspace(dir).read().results();
    assertThat(back).hasSize(1);
    BenchResult r = back.get(0);
    assertThat(r.preset()).isEqualTo("screen");
    assertThat(r.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(r.cluster()).isEqualTo("rack-a");
    assertThat(r.nodes()).containsExactly("n1", "n2", "n3");
    assertThat(r.headline().value()).isEqualTo(1000);
    assertThat(r.metrics())
        .containsEntry("n3/bandwidth_MBps", 50.0)
        .containsEntry("n1/latency_usec", 30.0)
        .containsEntry("n2/dgemm_Gflops", 2.0)
        .containsEntry("median/triad_MBps", 4000.0)
        .containsEntry("flagged_nodes", 1.0)
        .containsEntry("bandwidth", 50.0)
        .containsEntry("latency", 31.0);
    // results report draws each of them over time
    assertThat(Comparison.metricsOf(back, Set.of()))
        .contains("n3/bandwidth_MBps", "n3/latency_usec", "median/bandwidth_MBps");
    assertThat(Comparison.lowerIsBetter("n3/latency_usec")).isTrue();
  }
}
