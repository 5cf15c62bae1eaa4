package dev.clusterrun.core.screen;

import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.Verdict;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.screen.ScreenJudge.Cell;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A screen in the workspace's results log ({@code results.jsonl}, beside {@code bench} and {@code
 * hpl}), so {@code results report} draws each node's figures over time beside the run's medians:
 * preset {@code screen}, the median bandwidth as headline, and metrics named {@code NODE/METRIC}
 * ({@code node3/bandwidth_MBps}, {@code node3/latency_usec}, {@code node3/dgemm_Gflops}, {@code
 * node3/triad_MBps}) and {@code median/METRIC}. A node's pair metric is its better pair's. The
 * verdict is PASSED whenever the screen produced its figures, flagged or not (a flagged node's
 * figures are the ones to see over time); {@code flagged_nodes} counts the flagged nodes, and
 * {@code compute}, {@code memory}, {@code bandwidth} and {@code latency} are the worst node's
 * figures (the names a references file's {@code screen} entry gives).
 */
final class ScreenRecord {
  static final String PRESET = "screen";

  private ScreenRecord() {}

  static BenchResult of(ScreenJudge.Verdict v, RunSummary s, String cluster) {
    Map<String, Double> metrics = new LinkedHashMap<>();
    for (Metric m : v.metrics()) {
      metrics.put("median/" + m.key(), v.references().get(m));
    }
    for (ScreenJudge.NodeRow r : v.nodes()) {
      for (Map.Entry<Metric, Cell> e : r.cells().entrySet()) {
        metrics.put(r.node() + "/" + e.getKey().key(), e.getValue().value());
      }
    }
    // The worst node's figure per metric, under the metric's own name: what a references file's
    // screen entry holds (results compare --references judges it as screen --references did).
    for (Metric m : v.metrics()) {
      v.nodes().stream()
          .map(r -> r.cells().get(m))
          .filter(Objects::nonNull)
          .map(Cell::value)
          .reduce((x, y) -> m.higherIsBetter() ? Math.min(x, y) : Math.max(x, y))
          .ifPresent(worst -> metrics.put(m.label(), worst));
    }
    metrics.put("flagged_nodes", (double) v.flaggedNodes().size());
    Double bw = v.references().get(Metric.BANDWIDTH);
    return BenchResult.builder(PRESET)
        .verdict(Verdict.PASSED)
        .headline(bw == null ? null : new dev.clusterrun.core.bench.Metric("bandwidth", bw, "MB/s"))
        .metrics(metrics)
        .build()
        .withRun(
            v.nodes().stream().map(ScreenJudge.NodeRow::node).toList(),
            s.ranks(),
            null,
            s.image() != null ? s.image() : s.container(),
            instant(s.startedAt()),
            instant(s.endedAt()))
        .withOrigin(cluster, s.runId(), s.runDir());
  }

  /** Appends the screen to the workspace's log; says where. */
  static String append(ScreenJudge.Verdict v, RunSummary s, String cluster, Path workspace)
      throws IOException {
    ResultsLog log = ResultsLog.inWorkspace(workspace);
    String problem = log.problem();
    if (problem != null) {
      return "not recorded in the results log: " + problem;
    }
    log.append(of(v, s, cluster));
    return "appended to " + log.file();
  }

  private static Instant instant(String text) {
    try {
      return text == null ? null : Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
