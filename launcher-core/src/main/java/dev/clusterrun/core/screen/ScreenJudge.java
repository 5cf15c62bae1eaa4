package dev.clusterrun.core.screen;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges a screen's figures against the cluster itself; each figure is already the best of its
 * repeats. A node's own figures (compute, memory) are held against the median of the nodes'. A
 * pair's figures (bandwidth, latency) are held against the median, over the nodes, of each node's
 * better pair: a bad node is in two pairs, which on three nodes are two of the three, so the median
 * of the pairs would be the bad node's own figure. A figure is slow when it is off its reference by
 * more than the tolerance in the bad direction, and by more than the repeats of the same metric in
 * this screen differed from each other ({@code spreads}): a deviation the screen cannot tell from
 * its own noise is not a finding. A node is flagged when one of its own figures is slow, or when
 * every one of its pairs is slow on a metric (it needs two pairs: two nodes are one pair, which
 * blames nothing); a slow pair with neither end flagged names the link.
 */
public final class ScreenJudge {
  private ScreenJudge() {}

  /** What a screen measures, whether on a node alone or on a pair, and which way is worse. */
  public enum Metric {
    COMPUTE("compute", "Gflop/s", "dgemm_Gflops", false, true),
    MEMORY("memory", "MB/s", "triad_MBps", false, true),
    BANDWIDTH("bandwidth", "MB/s", "bandwidth_MBps", true, true),
    LATENCY("latency", "us", "latency_usec", true, false);

    private final String label;
    private final String unit;
    private final String key;
    private final boolean ofPair;
    private final boolean higherIsBetter;

    Metric(String label, String unit, String key, boolean ofPair, boolean higherIsBetter) {
      this.label = label;
      this.unit = unit;
      this.key = key;
      this.ofPair = ofPair;
      this.higherIsBetter = higherIsBetter;
    }

    public String label() {
      return label;
    }

    public String unit() {
      return unit;
    }

    /** The metric's name in the results log ({@code node3/bandwidth_MBps}). */
    public String key() {
      return key;
    }

    public boolean ofPair() {
      return ofPair;
    }

    double of(PairFigure p) {
      return this == BANDWIDTH ? p.bandwidthMBps() : p.latencyUs();
    }

    double of(NodeFigure n) {
      return this == COMPUTE ? n.dgemmGflops() : n.triadMBps();
    }

    boolean better(double x, double y) {
      return higherIsBetter ? x > y : x < y;
    }

    /** Whether {@code value} is off {@code reference} by more than {@code tolerance}, worse. */
    boolean slow(double value, double reference, double tolerance) {
      return higherIsBetter
          ? value < reference * (1 - tolerance)
          : value > reference * (1 + tolerance);
    }

    /** How far apart two repeats of one figure are, as a fraction of the better. */
    double spread(double best, double worst) {
      return best == 0 ? 0 : Math.abs(best - worst) / best;
    }
  }

  /** One node's own figures, by node name. */
  public record NodeFigure(String node, double dgemmGflops, double triadMBps) {}

  /** One pair's figures, by node name. */
  public record PairFigure(String a, String b, double bandwidthMBps, double latencyUs) {
    boolean has(String node) {
      return a.equals(node) || b.equals(node);
    }
  }

  /** A figure beside its reference: {@code deviation} is (value - reference) / reference. */
  public record Cell(double value, double deviation, boolean ok) {}

  /** A node's figures per metric (its better pair for pair metrics), and whether it is flagged. */
  public record NodeRow(String node, Map<Metric, Cell> cells) {
    public boolean flagged() {
      return cells.values().stream().anyMatch(c -> !c.ok());
    }
  }

  /**
   * A pair's figures; {@code blame} is null for a pair within tolerance, else the node flagged or
   * {@code "link"}.
   */
  public record PairRow(PairFigure figure, Map<Metric, Cell> cells, String blame) {}

  /**
   * The judgement of one screen.
   *
   * @param references the median per metric (only the metrics measured)
   * @param spreads per metric, the largest difference seen between two repeats of one figure, as a
   *     fraction of the better (how steady the measurement was)
   */
  public record Verdict(
      double tolerance,
      Map<Metric, Double> references,
      List<NodeRow> nodes,
      List<PairRow> pairs,
      Map<Metric, Double> spreads) {
    public Verdict {
      references = Map.copyOf(references);
      spreads = spreads == null ? Map.of() : Map.copyOf(spreads);
    }

    /** The metrics measured, in table order. */
    public List<Metric> metrics() {
      return java.util.Arrays.stream(Metric.values()).filter(references::containsKey).toList();
    }

    public List<String> flaggedNodes() {
      return nodes.stream().filter(NodeRow::flagged).map(NodeRow::node).toList();
    }

    public List<PairRow> flaggedLinks() {
      return pairs.stream().filter(p -> "link".equals(p.blame())).toList();
    }

    public boolean clean() {
      return flaggedNodes().isEmpty() && flaggedLinks().isEmpty();
    }
  }

  /**
   * Judges the figures among {@code nodes}: every node in at least one pair, and in {@code own}
   * when it is not empty.
   */
  public static Verdict judge(
      List<String> nodes,
      List<NodeFigure> own,
      List<PairFigure> pairs,
      double tolerance,
      Map<Metric, Double> spreads) {
    Map<Metric, Double> noise = spreads == null ? Map.of() : spreads;
    Map<Metric, Double> refs = new EnumMap<>(Metric.class);
    Map<Metric, Double> tol = new EnumMap<>(Metric.class);
    for (Metric m : Metric.values()) {
      tol.put(m, Math.max(tolerance, noise.getOrDefault(m, 0.0)));
    }
    for (Metric m : Metric.values()) {
      List<Double> figures = new ArrayList<>();
      if (m.ofPair()) {
        nodes.forEach(n -> figures.add(best(n, pairs, m)));
      } else {
        own.forEach(f -> figures.add(m.of(f)));
      }
      if (!figures.isEmpty()) {
        refs.put(m, median(figures));
      }
    }
    List<NodeRow> rows = new ArrayList<>();
    for (String n : nodes) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      for (Metric m : refs.keySet()) {
        if (m.ofPair()) {
          List<PairFigure> mine = pairs.stream().filter(p -> p.has(n)).toList();
          boolean allSlow =
              mine.size() >= 2
                  && mine.stream().allMatch(p -> m.slow(m.of(p), refs.get(m), tol.get(m)));
          cells.put(m, cell(best(n, pairs, m), refs.get(m), !allSlow));
        } else {
          own.stream()
              .filter(f -> f.node().equals(n))
              .findFirst()
              .ifPresent(
                  f ->
                      cells.put(
                          m,
                          cell(m.of(f), refs.get(m), !m.slow(m.of(f), refs.get(m), tol.get(m)))));
        }
      }
      rows.add(new NodeRow(n, cells));
    }
    return new Verdict(
        tolerance, refs, List.copyOf(rows), pairRows(rows, pairs, refs, tol), spreads);
  }

  private static List<PairRow> pairRows(
      List<NodeRow> rows,
      List<PairFigure> pairs,
      Map<Metric, Double> refs,
      Map<Metric, Double> tol) {
    Map<String, NodeRow> byName = new LinkedHashMap<>();
    rows.forEach(r -> byName.put(r.node(), r));
    List<PairRow> out = new ArrayList<>();
    for (PairFigure p : pairs) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      String blame = null;
      for (Metric m : refs.keySet()) {
        if (!m.ofPair()) {
          continue;
        }
        boolean slow = m.slow(m.of(p), refs.get(m), tol.get(m));
        cells.put(m, cell(m.of(p), refs.get(m), !slow));
        if (slow && blame == null) {
          blame =
              !byName.get(p.a()).cells().get(m).ok()
                  ? p.a()
                  : !byName.get(p.b()).cells().get(m).ok() ? p.b() : "link";
        }
      }
      out.add(new PairRow(p, cells, blame));
    }
    return List.copyOf(out);
  }

  private static Cell cell(double value, double reference, boolean ok) {
    return new Cell(value, reference == 0 ? 0 : (value - reference) / reference, ok);
  }

  private static double best(String node, List<PairFigure> pairs, Metric m) {
    Double best = null;
    for (PairFigure p : pairs) {
      if (p.has(node) && (best == null || m.better(m.of(p), best))) {
        best = m.of(p);
      }
    }
    if (best == null) {
      throw new IllegalArgumentException(node + " is in no pair");
    }
    return best;
  }

  static double median(List<Double> values) {
    List<Double> s = values.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
