package dev.clusterrun.core.screen;

import dev.clusterrun.core.EnumWords;
import java.util.ArrayList;
import java.util.Arrays;
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
 * blames nothing); a slow pair with neither end flagged names the link. With references ({@code
 * --references}), a figure is also slow when it is off the figure the operator expects by more than
 * the reference's bad-side bound (else the metric's tolerance) and than the repeats differed.
 */
public final class ScreenJudge {
  private ScreenJudge() {}

  /** What a screen measures, whether on a node alone or on a pair, and which way is worse. */
  public enum Metric {
    COMPUTE("Gflop/s", "dgemm_Gflops", false, true),
    MEMORY("MB/s", "triad_MBps", false, true),
    BANDWIDTH("MB/s", "bandwidth_MBps", true, true),
    LATENCY("us", "latency_usec", true, false);

    private final String unit;
    private final String key;
    private final boolean ofPair;
    private final boolean higherIsBetter;

    Metric(String unit, String key, boolean ofPair, boolean higherIsBetter) {
      this.unit = unit;
      this.key = key;
      this.ofPair = ofPair;
      this.higherIsBetter = higherIsBetter;
    }

    /** The metric's word: {@code compute}, {@code memory}, {@code bandwidth}, {@code latency}. */
    public String label() {
      return EnumWords.word(this);
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

    /** Whether a higher figure is better (compute, memory, bandwidth; not latency). */
    public boolean higherIsBetter() {
      return higherIsBetter;
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

  /**
   * A figure the operator expects ({@code --references}).
   *
   * @param bar how far off it a figure may be in the bad direction, as a fraction, or null for the
   *     metric's tolerance
   * @param where the reference's entry and place in its file, for the message
   */
  public record Expected(double value, Double bar, String where) {}

  /**
   * A figure beside the run's median: {@code deviation} is (value - median) / median; {@code
   * missed} is the deviation from the expected figure when it is slow against it, else null.
   */
  public record Cell(double value, double deviation, boolean ok, Double missed) {}

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
   * @param tolerance the tolerance of the metrics {@code tolerances} does not name
   * @param references the median per metric (only the metrics measured)
   * @param tolerances the tolerance per metric, where it is not {@code tolerance}
   * @param expected the figures the operator expects, by metric (empty without references)
   * @param spreads per metric, the largest difference seen between two repeats of one figure, as a
   *     fraction of the better (how steady the measurement was)
   * @param rechecks the figures the first measurement flagged and a second look measured again
   *     ({@link SecondLook}); empty when nothing was flagged the first time
   */
  public record Verdict(
      double tolerance,
      Map<Metric, Double> references,
      List<NodeRow> nodes,
      List<PairRow> pairs,
      Map<Metric, Double> tolerances,
      Map<Metric, Expected> expected,
      Map<Metric, Double> spreads,
      List<Recheck> rechecks) {
    public Verdict {
      rechecks = rechecks == null ? List.of() : List.copyOf(rechecks);
      references = Map.copyOf(references);
      tolerances = tolerances == null ? Map.of() : Map.copyOf(tolerances);
      expected = expected == null ? Map.of() : Map.copyOf(expected);
      spreads = spreads == null ? Map.of() : Map.copyOf(spreads);
    }

    /** The tolerance of {@code m}. */
    public double toleranceOf(Metric m) {
      return tolerances.getOrDefault(m, tolerance);
    }

    /** The metrics measured, in table order. */
    public List<Metric> metrics() {
      return Arrays.stream(Metric.values()).filter(references::containsKey).toList();
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
   * A figure measured twice: first with the whole cluster, then again by the second look.
   *
   * @param subject the node ({@code node3}) or the pair ({@code node2-node3})
   */
  public record Recheck(String subject, Metric metric, double first, double again) {}

  /**
   * Judges the figures among {@code nodes}: every node in at least one pair, and in {@code own}
   * when it is not empty; {@code expected} holds the figures a references file gives (or none).
   */
  public static Verdict judge(
      List<String> nodes,
      List<NodeFigure> own,
      List<PairFigure> pairs,
      Tolerances tolerances,
      Map<Metric, Expected> expected,
      Map<Metric, Double> spreads) {
    return judge(
        new Figures(nodes, own, pairs),
        medians(nodes, own, pairs),
        tolerances,
        expected,
        spreads,
        List.of());
  }

  /** The figures of one screen: its nodes, their own figures and their pairs'. */
  record Figures(List<String> nodes, List<NodeFigure> own, List<PairFigure> pairs) {}

  /**
   * Judges the figures after a second look ({@code rechecks}), against the first verdict's medians
   * and with its spreads: the reference stays what the whole cluster measured.
   */
  static Verdict again(
      Verdict first, Figures figures, Tolerances tolerances, List<Recheck> rechecks) {
    return judge(
        figures, first.references(), tolerances, first.expected(), first.spreads(), rechecks);
  }

  private static Map<Metric, Double> medians(
      List<String> nodes, List<NodeFigure> own, List<PairFigure> pairs) {
    Map<Metric, Double> refs = new EnumMap<>(Metric.class);
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
    return refs;
  }

  private static Verdict judge(
      Figures fig,
      Map<Metric, Double> refs,
      Tolerances tolerances,
      Map<Metric, Expected> expected,
      Map<Metric, Double> spreads,
      List<Recheck> rechecks) {
    List<String> nodes = fig.nodes();
    List<NodeFigure> own = fig.own();
    List<PairFigure> pairs = fig.pairs();
    Bars bars = new Bars(refs, tolerances, expected, spreads == null ? Map.of() : spreads);
    List<NodeRow> rows = new ArrayList<>();
    for (String n : nodes) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      for (Metric m : refs.keySet()) {
        if (m.ofPair()) {
          List<PairFigure> mine = pairs.stream().filter(p -> p.has(n)).toList();
          boolean allSlow = mine.size() >= 2 && mine.stream().allMatch(p -> bars.slow(m, m.of(p)));
          cells.put(m, bars.cell(m, best(n, pairs, m), !allSlow));
        } else {
          own.stream()
              .filter(f -> f.node().equals(n))
              .findFirst()
              .ifPresent(f -> cells.put(m, bars.cell(m, m.of(f), !bars.slow(m, m.of(f)))));
        }
      }
      rows.add(new NodeRow(n, cells));
    }
    Map<Metric, Double> per = new EnumMap<>(Metric.class);
    refs.keySet().forEach(m -> per.put(m, tolerances.of(m)));
    return new Verdict(
        tolerances.all(),
        refs,
        List.copyOf(rows),
        pairRows(rows, pairs, bars),
        per,
        expected,
        spreads,
        rechecks);
  }

  /**
   * What a figure is held to: the run's median at the metric's tolerance, and the expected figure
   * at its reference's bound; either bar no lower than the repeats' spread.
   */
  private record Bars(
      Map<Metric, Double> medians,
      Tolerances tolerances,
      Map<Metric, Expected> expected,
      Map<Metric, Double> noise) {
    double bar(Metric m, Double given) {
      return Math.max(given != null ? given : tolerances.of(m), noise.getOrDefault(m, 0.0));
    }

    boolean slowVsExpected(Metric m, double value) {
      Expected e = expected.get(m);
      return e != null && m.slow(value, e.value(), bar(m, e.bar()));
    }

    boolean slow(Metric m, double value) {
      return m.slow(value, medians.get(m), bar(m, null)) || slowVsExpected(m, value);
    }

    Cell cell(Metric m, double value, boolean ok) {
      double median = medians.get(m);
      Expected e = expected.get(m);
      Double missed =
          !ok && slowVsExpected(m, value) && e.value() != 0
              ? (value - e.value()) / e.value()
              : null;
      return new Cell(value, median == 0 ? 0 : (value - median) / median, ok, missed);
    }
  }

  private static List<PairRow> pairRows(List<NodeRow> rows, List<PairFigure> pairs, Bars bars) {
    Map<String, NodeRow> byName = new LinkedHashMap<>();
    rows.forEach(r -> byName.put(r.node(), r));
    List<PairRow> out = new ArrayList<>();
    for (PairFigure p : pairs) {
      Map<Metric, Cell> cells = new EnumMap<>(Metric.class);
      String blame = null;
      for (Metric m : bars.medians().keySet()) {
        if (!m.ofPair()) {
          continue;
        }
        boolean slow = bars.slow(m, m.of(p));
        cells.put(m, bars.cell(m, m.of(p), !slow));
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
