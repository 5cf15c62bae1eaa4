package dev.clusterrun.core.screen;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges the pairs' figures against the cluster itself. Each metric's reference is the median, over
 * the nodes, of each node's better pair: a bad node is in two pairs, which on three nodes are two
 * of the three, so the median of the pairs would be the bad node's own figure. A pair is slow on a
 * metric when it is off the reference by more than the tolerance in the bad direction. A node is
 * flagged when every one of its pairs is slow on that metric (it needs two pairs: two nodes are one
 * pair, which blames nothing); a slow pair with neither end flagged names the link.
 */
public final class ScreenJudge {
  private ScreenJudge() {}

  /** What a pair measures, and which way is worse. */
  public enum Metric {
    BANDWIDTH("bandwidth", "MB/s", true),
    LATENCY("latency", "us", false);

    private final String label;
    private final String unit;
    private final boolean higherIsBetter;

    Metric(String label, String unit, boolean higherIsBetter) {
      this.label = label;
      this.unit = unit;
      this.higherIsBetter = higherIsBetter;
    }

    public String label() {
      return label;
    }

    public String unit() {
      return unit;
    }

    double of(PairFigure p) {
      return this == BANDWIDTH ? p.bandwidthMBps() : p.latencyUs();
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
  }

  /** One pair's figures, by node name. */
  public record PairFigure(String a, String b, double bandwidthMBps, double latencyUs) {
    boolean has(String node) {
      return a.equals(node) || b.equals(node);
    }
  }

  /** A figure beside its reference: {@code deviation} is (value - reference) / reference. */
  public record Cell(double value, double deviation, boolean ok) {}

  /** A node's better figure per metric, and whether it is flagged on it. */
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

  /** The judgement of one screen. */
  public record Verdict(
      double tolerance, Map<Metric, Double> references, List<NodeRow> nodes, List<PairRow> pairs) {
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

  /** Judges {@code pairs} among {@code nodes} (every node in at least one pair). */
  public static Verdict judge(List<String> nodes, List<PairFigure> pairs, double tolerance) {
    Map<Metric, Double> refs = new EnumMap<>(Metric.class);
    for (Metric m : Metric.values()) {
      List<Double> best = new ArrayList<>();
      for (String n : nodes) {
        best.add(best(n, pairs, m));
      }
      refs.put(m, median(best));
    }
    List<NodeRow> rows = new ArrayList<>();
    for (String n : nodes) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      for (Metric m : Metric.values()) {
        List<PairFigure> mine = pairs.stream().filter(p -> p.has(n)).toList();
        boolean allSlow =
            mine.size() >= 2
                && mine.stream().allMatch(p -> m.slow(m.of(p), refs.get(m), tolerance));
        cells.put(m, cell(best(n, pairs, m), refs.get(m), !allSlow));
      }
      rows.add(new NodeRow(n, cells));
    }
    Map<String, NodeRow> byName = new LinkedHashMap<>();
    rows.forEach(r -> byName.put(r.node(), r));
    List<PairRow> pairRows = new ArrayList<>();
    for (PairFigure p : pairs) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      String blame = null;
      for (Metric m : Metric.values()) {
        boolean slow = m.slow(m.of(p), refs.get(m), tolerance);
        cells.put(m, cell(m.of(p), refs.get(m), !slow));
        if (slow && blame == null) {
          blame =
              !byName.get(p.a()).cells().get(m).ok()
                  ? p.a()
                  : !byName.get(p.b()).cells().get(m).ok() ? p.b() : "link";
        }
      }
      pairRows.add(new PairRow(p, cells, blame));
    }
    return new Verdict(tolerance, refs, List.copyOf(rows), List.copyOf(pairRows));
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
