package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.InputFiles;
import dev.clusterrun.core.spec.DidYouMean;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Expected values with tolerances, per cluster, preset and size, as ReFrame keeps them ({@code
 * reference = {system: {metric: (value, lower, upper, unit)}}}), read from a YAML file:
 *
 * <pre>
 * clusters:
 *   ci:                      # --cluster NAME, or the hostfile's name; '*' for any cluster
 *     hpcc:                  # the preset
 *       - nodes: 3           # size, each optional: nodes, ranks, gpus, n
 *         metrics:
 *           HPL: {value: 3.5, lower: -30%, upper: +50%, unit: Gflops}
 * </pre>
 *
 * <p>A run takes the reference that matches its cluster (by name before {@code *}), preset and
 * every size key the reference gives, the one giving most of them winning. Tolerances are
 * percentages of the value; an absent one leaves that side open. Values on a bound pass.
 */
public final class References {
  /** Stands for any cluster. */
  public static final String ANY_CLUSTER = "*";

  static final Pattern CLUSTER = Pattern.compile("\\*|[A-Za-z0-9._-]+");

  /**
   * One expected value.
   *
   * @param lowerPercent how far below {@code value} a run may fall, in percent (≤ 0), or null
   * @param upperPercent how far above it may rise, in percent (≥ 0), or null
   * @param unit the unit the run must report it in, or null for any
   * @param where {@code FILE:LINE:COLUMN} of its definition
   */
  public record Bound(
      String metric,
      double value,
      BigDecimal lowerPercent,
      BigDecimal upperPercent,
      String unit,
      String where) {
    /** The lowest value that passes, or null when there is none. */
    public Double low() {
      return lowerPercent == null ? null : scaled(lowerPercent).doubleValue();
    }

    /** The highest value that passes, or null when there is none. */
    public Double high() {
      return upperPercent == null ? null : scaled(upperPercent).doubleValue();
    }

    private BigDecimal scaled(BigDecimal percent) {
      return BigDecimal.valueOf(value)
          .multiply(BigDecimal.ONE.add(percent.movePointLeft(2)), MathContext.DECIMAL64);
    }

    /** Whether {@code v} lies within the bounds (inclusive). */
    public boolean holds(double v) {
      BigDecimal x = BigDecimal.valueOf(v);
      return (lowerPercent == null || x.compareTo(scaled(lowerPercent)) >= 0)
          && (upperPercent == null || x.compareTo(scaled(upperPercent)) <= 0);
    }

    /** {@code [3.15, 4.2] Gflops}. */
    public String interval() {
      return "["
          + (lowerPercent == null ? "-inf" : Fmt.num(low()))
          + ", "
          + (upperPercent == null ? "+inf" : Fmt.num(high()))
          + "]"
          + Fmt.unitSuffix(unit);
    }

    /** {@code [3.15, 4.2] (3.5 Gflops -10%/+20%)}. */
    public String describe() {
      String u = unit == null ? "" : " " + unit;
      return "["
          + (lowerPercent == null ? "-inf" : Fmt.num(low()))
          + ", "
          + (upperPercent == null ? "+inf" : Fmt.num(high()))
          + "] ("
          + Fmt.num(value)
          + u
          + " "
          + pct(lowerPercent, "-")
          + "/"
          + pct(upperPercent, "+")
          + ")";
    }

    private static String pct(BigDecimal p, String open) {
      if (p == null) {
        return open + "inf";
      }
      String t = p.stripTrailingZeros().toPlainString();
      return (p.signum() > 0 ? "+" : p.signum() == 0 ? (open.equals("-") ? "-" : "+") : "")
          + t
          + "%";
    }
  }

  /**
   * One cluster's expectations for one preset at one size.
   *
   * @param nodes ranks gpus n size keys; null ones match any run
   * @param metrics by metric name, in file order
   * @param where {@code FILE:LINE:COLUMN} of the entry
   */
  public record Entry(
      String cluster,
      String preset,
      Integer nodes,
      Integer ranks,
      Integer gpus,
      Long n,
      Map<String, Bound> metrics,
      String where) {
    public Entry {
      metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /**
     * Whether this entry is for {@code size}; with {@code nKnown} false (before a run) the problem
     * size is not checked.
     */
    boolean fits(String cluster, String preset, Size size, boolean nKnown) {
      return (this.cluster.equals(ANY_CLUSTER) || this.cluster.equals(cluster))
          && this.preset.equals(preset)
          && (nodes == null || nodes.equals(size.nodes()))
          && (ranks == null || ranks.equals(size.ranks()))
          && (gpus == null || gpus.equals(size.gpus()))
          && (n == null || !nKnown || n.equals(size.n()));
    }

    int specificity() {
      int s = cluster.equals(ANY_CLUSTER) ? 0 : 10;
      for (Object k : Arrays.asList(nodes, ranks, gpus, n)) {
        s += k == null ? 0 : 1;
      }
      return s;
    }

    /** {@code ci/hpcc nodes=3 n=960}. */
    public String label() {
      StringBuilder b = new StringBuilder(cluster + "/" + preset);
      if (nodes != null) {
        b.append(" nodes=").append(nodes);
      }
      if (ranks != null) {
        b.append(" ranks=").append(ranks);
      }
      if (gpus != null) {
        b.append(" gpus=").append(gpus);
      }
      if (n != null) {
        b.append(" n=").append(n);
      }
      return b.toString();
    }
  }

  /** The size of a run, as references select by it; {@code n} null when not known yet. */
  public record Size(Integer nodes, Integer ranks, Integer gpus, Long n) {
    public static Size of(BenchResult r) {
      return new Size(r.nodes().isEmpty() ? null : r.nodes().size(), r.ranks(), r.gpus(), r.n());
    }

    String describe() {
      List<String> parts = new ArrayList<>();
      if (nodes != null) {
        parts.add(nodes + (nodes == 1 ? " node" : " nodes"));
      }
      if (ranks != null) {
        parts.add(ranks + (ranks == 1 ? " rank" : " ranks"));
      }
      if (gpus != null) {
        parts.add(gpus + " GPUs");
      }
      if (n != null) {
        parts.add("N=" + n);
      }
      return String.join(", ", parts);
    }
  }

  private final String source;
  private final List<Entry> entries;

  private References(String source, List<Entry> entries) {
    this.source = source;
    this.entries = List.copyOf(entries);
  }

  public String source() {
    return source;
  }

  public List<Entry> entries() {
    return entries;
  }

  /**
   * The name a cluster goes by: the one the operator gives, else the hostfile's file name without
   * its extension ({@code /etc/clusterrun/gpu-a.txt} is {@code gpu-a}).
   */
  public static String clusterName(String given, Path hostfile) {
    if (given != null) {
      return given;
    }
    if (hostfile == null || hostfile.getFileName() == null) {
      return "cluster";
    }
    String b = hostfile.getFileName().toString();
    int dot = b.lastIndexOf('.');
    b = dot > 0 ? b.substring(0, dot) : b;
    b = b.replaceAll("[^A-Za-z0-9._-]", "-");
    return b.isEmpty() ? "cluster" : b;
  }

  /** Why {@code name} cannot name a cluster in references, or null when it can. */
  public static String clusterNameProblem(String name) {
    return name != null && CLUSTER.matcher(name).matches() && !name.equals(ANY_CLUSTER)
        ? null
        : "'" + name + "' cannot name a cluster: use letters, digits, '.', '_' and '-'";
  }

  // ---------------------------------------------------------------------------------------------
  // Choosing

  /**
   * The reference for a run, or null when none fits.
   *
   * @throws BadInputException when two equally specific references fit (the file is ambiguous)
   */
  public Entry find(String cluster, String preset, Size size) {
    Entry best = null;
    for (Entry e : entries) {
      if (!e.fits(cluster, preset, size, true)) {
        continue;
      }
      if (best == null || e.specificity() > best.specificity()) {
        best = e;
      } else if (e.specificity() == best.specificity()) {
        throw new BadInputException(
            e.where(),
            "this reference and the one at "
                + best.where()
                + " both fit "
                + preset
                + " on "
                + cluster
                + " ("
                + size.describe()
                + "); give one of them another size key");
      }
    }
    return best;
  }

  /**
   * Why no reference can fit a run about to start (its N not known yet), or null when one can. For
   * {@code hpl}/{@code bench --references}, before any node is touched.
   */
  public String cannotFit(String cluster, String preset, Size size) {
    Size unknownN = new Size(size.nodes(), size.ranks(), size.gpus(), null);
    for (Entry e : entries) {
      if (e.fits(cluster, preset, unknownN, false)) {
        return null;
      }
    }
    return noReference(cluster, preset, unknownN);
  }

  private String noReference(String cluster, String preset, Size size) {
    List<String> have = new ArrayList<>();
    for (Entry e : entries) {
      have.add(e.label());
    }
    return source
        + " has no reference for "
        + preset
        + " on cluster '"
        + cluster
        + "' ("
        + size.describe()
        + ")"
        + (have.isEmpty() ? "" : "; it has " + String.join(", ", have))
        + (entries.stream().anyMatch(e -> e.cluster().equals(cluster))
            ? ""
            : "; name the cluster with --cluster NAME (default: the hostfile's name)");
  }

  // ---------------------------------------------------------------------------------------------
  // Judging

  /**
   * One metric of a run against its reference.
   *
   * @param value the run's value, or null when the run has no such metric
   * @param problem why it fails, or null when it holds
   */
  public record MetricCheck(String metric, Double value, String unit, Bound bound, String problem) {
    public boolean holds() {
      return problem == null;
    }
  }

  /**
   * A run judged against the references.
   *
   * @param entry the reference used, or null when none fits
   * @param message for people: every metric with its value and bounds, or why it was not judged
   */
  public record Judgement(boolean passed, Entry entry, List<MetricCheck> checks, String message) {
    public Judgement {
      checks = List.copyOf(checks);
    }
  }

  /** The value a run reports for a metric name: the headline's, or one of its metrics. */
  public static Double valueOf(BenchResult r, String metric) {
    if (r.headline() != null && r.headline().name().equals(metric)) {
      return r.headline().value();
    }
    return r.metrics().get(metric);
  }

  /** The unit of a metric in a run: the headline's unit, else as its name says, else null. */
  public static String unitOf(BenchResult r, String metric) {
    return r.headline() != null && r.headline().name().equals(metric)
        ? r.headline().unit()
        : unitByName(metric);
  }

  /**
   * The unit a metric's name implies ({@code StarDGEMM_Gflops}, {@code PTRANS_GBs}, hpcc's STREAM
   * figures in GB/s, {@code MaxPingPongLatency_usec}, {@code lu_seconds_max} …), or null.
   */
  static String unitByName(String metric) {
    String m = metric.toLowerCase(Locale.ROOT);
    if (m.endsWith("_gflops") || m.endsWith("_gflops_per_gpu")) {
      return "Gflops";
    }
    if (m.endsWith("_gbs") || m.endsWith("_gbytes") || m.contains("stream_") || m.endsWith("bw")) {
      return "GB/s";
    }
    if (m.endsWith("_gups")) {
      return "GUP/s";
    }
    if (m.endsWith("_usec")) {
      return "usec";
    }
    if (m.endsWith("_time") || m.endsWith("_time_s") || m.endsWith("_seconds_max")) {
      return "s";
    }
    return null;
  }

  /** Judges a run; a run that is not PASSED never passes. */
  public Judgement judge(String cluster, BenchResult r) {
    String who = r.preset();
    Entry e = find(cluster, r.preset(), Size.of(r));
    if (e == null) {
      return new Judgement(
          false, null, List.of(), who + ": " + noReference(cluster, r.preset(), Size.of(r)));
    }
    List<MetricCheck> checks = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    boolean ok = r.passed();
    for (Bound b : e.metrics().values()) {
      Double v = valueOf(r, b.metric());
      String unit = unitOf(r, b.metric());
      String problem = null;
      if (v == null) {
        List<String> have = new ArrayList<>();
        if (r.headline() != null) {
          have.add(r.headline().name());
        }
        have.addAll(r.metrics().keySet());
        problem =
            "the run has no metric "
                + b.metric()
                + DidYouMean.hint(b.metric(), have)
                + (have.isEmpty() ? "" : " (it has " + String.join(", ", have) + ")");
        parts.add(b.metric() + ": " + problem);
      } else if (b.unit() != null && unit != null && !b.unit().equals(unit)) {
        problem = "the reference is in " + b.unit() + ", the run reports " + unit;
        parts.add(b.metric() + ": " + problem);
      } else {
        String shown = b.metric() + " " + Fmt.num(v) + (unit == null ? "" : " " + unit);
        if (b.holds(v)) {
          parts.add(shown + " within " + b.describe());
        } else {
          boolean below = b.low() != null && v < b.low();
          problem =
              shown
                  + " is "
                  + (below ? "below" : "above")
                  + " the reference "
                  + b.describe()
                  + " at "
                  + b.where();
          parts.add(problem);
        }
      }
      checks.add(new MetricCheck(b.metric(), v, unit, b, problem));
      ok &= problem == null;
    }
    String head =
        who
            + ": reference "
            + e.label()
            + (r.passed() ? "" : " (the run is " + r.verdict() + ": " + r.reason() + ")")
            + ": ";
    return new Judgement(ok, e, checks, head + String.join("; ", parts));
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** Reads a references file; every problem names {@code FILE:LINE:COLUMN: key.path}. */
  public static References read(Path file) {
    return parse(InputFiles.read(file, "a references file"), file.toString());
  }

  /** Reads a references file's text; {@code source} names it in messages. */
  public static References parse(String yaml, String source) {
    return new References(source, new ReferencesReader(source).entries(yaml));
  }
}
