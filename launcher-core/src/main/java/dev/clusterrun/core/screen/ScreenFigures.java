package dev.clusterrun.core.screen;

import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.screen.ScreenJudge.NodeFigure;
import dev.clusterrun.core.screen.ScreenJudge.PairFigure;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The program's repeats reduced to one figure each, the best of its repeats (so a busy moment does
 * not flag a healthy node), by node name (the program's node index is the hostfile's order); with
 * how far apart the repeats were, and the nodes that gave no figure.
 *
 * @param missing node → why it has no figure (empty when every node and pair has one)
 */
record ScreenFigures(
    List<NodeFigure> nodes,
    List<PairFigure> pairs,
    Map<Metric, Double> spreads,
    Map<String, String> missing) {

  static ScreenFigures of(
      ScreenParser.Output out, List<String> names, List<PairRounds.Pair> pairs, String why) {
    Map<Metric, Double> spreads = new EnumMap<>(Metric.class);
    Map<String, String> missing = new LinkedHashMap<>();
    if (!out.ended()) {
      names.forEach(n -> missing.put(n, "the screen program gave no figures (" + why + ")"));
      return new ScreenFigures(List.of(), List.of(), spreads, missing);
    }
    List<NodeFigure> own = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      int node = i;
      List<ScreenParser.NodeRep> reps =
          out.nodeReps().stream().filter(r -> r.node() == node).toList();
      if (reps.isEmpty()) {
        missing.put(names.get(i), "gave no single-node figure (" + why + ")");
        continue;
      }
      double g = best(reps.stream().map(ScreenParser.NodeRep::dgemmGflops).toList(), true);
      double t = best(reps.stream().map(ScreenParser.NodeRep::triadMBps).toList(), true);
      own.add(new NodeFigure(names.get(i), g, t));
      spread(
          spreads, Metric.COMPUTE, reps.stream().map(ScreenParser.NodeRep::dgemmGflops).toList());
      spread(spreads, Metric.MEMORY, reps.stream().map(ScreenParser.NodeRep::triadMBps).toList());
    }
    List<PairFigure> figures = new ArrayList<>();
    for (PairRounds.Pair p : pairs) {
      List<ScreenParser.PairRep> reps =
          out.pairReps().stream()
              .filter(r -> r.a() == p.a() && r.b() == p.b() && r.bandwidthMBps() > 0)
              .toList();
      String a = names.get(p.a());
      String b = names.get(p.b());
      if (reps.isEmpty()) {
        String w = "the pair " + a + "-" + b + " gave no figure (" + why + ")";
        missing.putIfAbsent(a, w);
        missing.putIfAbsent(b, w);
        continue;
      }
      List<Double> bw = reps.stream().map(ScreenParser.PairRep::bandwidthMBps).toList();
      List<Double> lat = reps.stream().map(ScreenParser.PairRep::latencyUs).toList();
      figures.add(new PairFigure(a, b, best(bw, true), best(lat, false)));
      spread(spreads, Metric.BANDWIDTH, bw);
      spread(spreads, Metric.LATENCY, lat);
    }
    return new ScreenFigures(List.copyOf(own), List.copyOf(figures), spreads, missing);
  }

  private static double best(List<Double> xs, boolean higher) {
    return higher
        ? xs.stream().mapToDouble(Double::doubleValue).max().orElse(0)
        : xs.stream().mapToDouble(Double::doubleValue).min().orElse(0);
  }

  /** Keeps the largest spread seen for {@code m}: (max - min) / best. */
  private static void spread(Map<Metric, Double> spreads, Metric m, List<Double> reps) {
    double hi = best(reps, true);
    double lo = best(reps, false);
    double s = m.spread(m == Metric.LATENCY ? lo : hi, m == Metric.LATENCY ? hi : lo);
    spreads.merge(m, s, Math::max);
  }
}
