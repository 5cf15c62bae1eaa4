package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.Columns;
import dev.clusterrun.core.Json;
import dev.clusterrun.core.spec.DidYouMean;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs of the results log side by side, per cluster, preset and size ({@link Group}), one row per
 * metric: how many runs, the first, last, mean and median of the passed ones, the change from first
 * to last in percent and a verdict. The verdict is the reference's when one fits the last run
 * ({@code within reference} / {@code outside reference}); otherwise the change decides: {@code
 * regressed} when the metric got worse by more than the allowed percentage (lower is better for
 * times, latencies and error counts), {@code improved} when it got better by more, else {@code
 * steady}.
 */
public final class Comparison {
  private Comparison() {}

  /** Runs compared with each other: same cluster, preset, node and rank count, and problem size. */
  public record Group(String cluster, String preset, Integer nodes, Integer ranks, Long n) {
    static Group of(BenchResult r) {
      return new Group(
          r.cluster(), r.preset(), r.nodes().isEmpty() ? null : r.nodes().size(), r.ranks(), r.n());
    }

    /** {@code hpcc on ci: 3 nodes, 3 ranks, N=960}. */
    public String label() {
      String size = new References.Size(nodes, ranks, null, n).describe();
      return preset
          + " on "
          + (cluster == null ? "an unnamed cluster" : cluster)
          + (size.isEmpty() ? "" : ": " + size);
    }

    /** A stable identifier for HTML anchors: letters, digits and '-'. */
    public String id() {
      return (preset
              + "-"
              + (cluster == null ? "unnamed" : cluster)
              + "-"
              + (nodes == null ? "x" : nodes)
              + "-"
              + (ranks == null ? "x" : ranks)
              + "-"
              + (n == null ? "x" : n))
          .replaceAll("[^A-Za-z0-9-]", "-");
    }
  }

  /**
   * One metric of one group.
   *
   * @param runs runs in the group; {@code failed} of them not PASSED (left out of the numbers)
   * @param changePercent (last − first) / first × 100, or null with fewer than two values
   * @param reference the reference for the last passed run, or null
   */
  public record Row(
      Group group,
      String metric,
      String unit,
      int runs,
      int failed,
      Double first,
      Double last,
      Double mean,
      Double median,
      Double changePercent,
      String verdict,
      References.Bound reference) {
    /** Whether this row should fail a scheduled check: a regression or a value off reference. */
    public boolean bad() {
      return verdict.equals(REGRESSED) || verdict.equals(OUTSIDE);
    }
  }

  public static final String REGRESSED = "regressed";
  public static final String IMPROVED = "improved";
  public static final String STEADY = "steady";
  public static final String WITHIN = "within reference";
  public static final String OUTSIDE = "outside reference";
  public static final String ONE_RUN = "one run";
  public static final String NO_PASSED_RUN = "no passed run";

  /**
   * How to compare.
   *
   * @param maxChangePercent how far a metric may get worse, in percent, before it regressed
   * @param metrics the metrics to show (empty: the headline and every performance metric)
   * @param references expected values, or null
   */
  public record Options(double maxChangePercent, Set<String> metrics, References references) {
    public Options {
      metrics = Set.copyOf(metrics);
    }
  }

  /** Whether smaller values are better: times, latencies, error counts. */
  public static boolean lowerIsBetter(String metric) {
    String m = metric.toLowerCase(Locale.ROOT);
    return m.contains("latency")
        || m.contains("time")
        || m.endsWith("_usec")
        || m.endsWith("seconds")
        || m.contains("error");
  }

  /**
   * Whether a metric measures performance, as opposed to the run's shape ({@code CommWorldProcs},
   * table sizes {@code *_N}, counts), a copy of the headline ({@code HPL_Tflops}) or error counts
   * that are part of the verdict already.
   */
  public static boolean isPerformance(String metric) {
    return !(SHAPE.contains(metric)
        || metric.endsWith("_N")
        || metric.startsWith("global_n")
        || metric.contains("Errors"));
  }

  /** Metrics that describe a run rather than measure it (hpcc, HPCG, HPL-MxP, nccl, STREAM). */
  private static final Set<String> SHAPE =
      Set.of(
          "CommWorldProcs",
          "HPL_Tflops",
          "processes",
          "results",
          "sizes",
          "devices",
          "tables",
          "largest_size_bytes",
          "wrong_values",
          "out_of_bounds");

  /** The metrics of a set of runs in report order: the headline first, then by name. */
  public static List<String> metricsOf(List<BenchResult> runs, Set<String> wanted) {
    Set<String> out = new LinkedHashSet<>();
    for (BenchResult r : runs) {
      if (r.headline() != null) {
        out.add(r.headline().name());
      }
    }
    Set<String> rest = new TreeSet<>();
    for (BenchResult r : runs) {
      rest.addAll(r.metrics().keySet());
    }
    for (String m : rest) {
      if (isPerformance(m) || wanted.contains(m)) {
        out.add(m);
      }
    }
    if (!wanted.isEmpty()) {
      out.retainAll(wanted);
    }
    return new ArrayList<>(out);
  }

  /** Results by group, groups in order of first appearance, runs in time order. */
  public static Map<Group, List<BenchResult>> groups(List<BenchResult> results) {
    Map<Group, List<BenchResult>> out = new LinkedHashMap<>();
    List<BenchResult> sorted = new ArrayList<>(results);
    sorted.sort(
        Comparator.comparing(
            (BenchResult r) -> r.startTime() == null ? Instant.EPOCH : r.startTime()));
    for (BenchResult r : sorted) {
      out.computeIfAbsent(Group.of(r), k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  public static List<Row> rows(List<BenchResult> results, Options o) {
    List<Row> out = new ArrayList<>();
    for (Map.Entry<Group, List<BenchResult>> g : groups(results).entrySet()) {
      List<BenchResult> runs = g.getValue();
      for (String metric : metricsOf(runs, o.metrics())) {
        out.add(row(g.getKey(), runs, metric, o));
      }
    }
    return out;
  }

  private static Row row(Group g, List<BenchResult> runs, String metric, Options o) {
    List<Double> values = new ArrayList<>();
    String unit = null;
    BenchResult lastPassed = null;
    int failed = 0;
    for (BenchResult r : runs) {
      if (!r.passed()) {
        failed++;
        continue;
      }
      Double v = References.valueOf(r, metric);
      if (v == null || v.isNaN() || v.isInfinite()) {
        continue;
      }
      values.add(v);
      lastPassed = r;
      if (unit == null) {
        unit = References.unitOf(r, metric);
      }
    }
    References.Bound ref = null;
    if (o.references() != null && lastPassed != null && g.cluster() != null) {
      References.Entry e =
          o.references().find(g.cluster(), g.preset(), References.Size.of(lastPassed));
      ref = e == null ? null : e.metrics().get(metric);
    }
    if (values.isEmpty()) {
      return new Row(
          g, metric, unit, runs.size(), failed, null, null, null, null, null, NO_PASSED_RUN, ref);
    }
    double first = values.get(0);
    double last = values.get(values.size() - 1);
    double mean = values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int k = sorted.size();
    double median =
        k % 2 == 1 ? sorted.get(k / 2) : (sorted.get(k / 2 - 1) + sorted.get(k / 2)) / 2;
    Double change = null;
    if (values.size() >= 2 && first != 0) {
      change =
          BigDecimal.valueOf(last)
              .subtract(BigDecimal.valueOf(first))
              .divide(BigDecimal.valueOf(first), MathContext.DECIMAL64)
              .movePointRight(2)
              .doubleValue();
    }
    String verdict;
    if (ref != null) {
      verdict = ref.holds(last) ? WITHIN : OUTSIDE;
    } else if (change == null) {
      verdict = values.size() < 2 ? ONE_RUN : STEADY;
    } else {
      double better = lowerIsBetter(metric) ? -change : change;
      verdict =
          better < -o.maxChangePercent()
              ? REGRESSED
              : better > o.maxChangePercent() ? IMPROVED : STEADY;
    }
    return new Row(
        g, metric, unit, runs.size(), failed, first, last, mean, median, change, verdict, ref);
  }

  // ---------------------------------------------------------------------------------------------
  // Choosing runs

  private static final Pattern AGO = Pattern.compile("([0-9]{1,6})([mhdw])");

  /**
   * The start of a {@code --since} window: an age ({@code 30m}, {@code 12h}, {@code 7d}, {@code
   * 2w}) before {@code now}, a date ({@code 2026-11-01}, midnight UTC) or an instant.
   *
   * @throws IllegalArgumentException with a message fit to follow the flag
   */
  public static Instant since(String text, Instant now) {
    String t = text.strip();
    Matcher m = AGO.matcher(t);
    if (m.matches()) {
      long k = Long.parseLong(m.group(1));
      Duration d =
          switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(k);
            case "h" -> Duration.ofHours(k);
            case "d" -> Duration.ofDays(k);
            default -> Duration.ofDays(7 * k);
          };
      return now.minus(d);
    }
    try {
      return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      // an instant, below
    }
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not an age (30m, 12h, 7d, 2w), a date (2026-11-01) or an instant"
              + " (2026-11-01T08:00:00Z)");
    }
  }

  /** The runs of a preset and a cluster; a null filter takes every run. */
  public static List<BenchResult> only(List<BenchResult> results, String preset, String cluster) {
    List<BenchResult> out = new ArrayList<>();
    for (BenchResult r : results) {
      if ((preset == null || preset.equals(r.preset()))
          && (cluster == null || cluster.equals(r.cluster()))) {
        out.add(r);
      }
    }
    return out;
  }

  /** The runs that started at or after {@code from} (runs without a start time are left out). */
  public static List<BenchResult> since(List<BenchResult> results, Instant from) {
    List<BenchResult> out = new ArrayList<>();
    for (BenchResult r : results) {
      if (r.startTime() != null && !r.startTime().isBefore(from)) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * The runs with these ids, in the order given (the first is "first").
   *
   * @throws BadInputException naming an id that is not in the log
   */
  public static List<BenchResult> byRunIds(
      List<BenchResult> results, List<String> ids, String subject) {
    List<BenchResult> out = new ArrayList<>();
    for (String id : ids) {
      BenchResult found = null;
      for (BenchResult r : results) {
        if (id.equals(r.runId())) {
          found = r;
        }
      }
      if (found == null) {
        List<String> known = new ArrayList<>();
        for (BenchResult r : results) {
          if (r.runId() != null) {
            known.add(r.runId());
          }
        }
        String hint = DidYouMean.hint(id, known);
        throw new BadInputException(
            subject,
            "no run "
                + id
                + " in the results log"
                + hint
                + (known.isEmpty()
                    ? " (no run in it has an id; runs record theirs since this version)"
                    : hint.isEmpty() ? " (`clusterrun results` lists the runs)" : ""));
      }
      out.add(found);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering

  private static final String[] HEADER = {
    "METRIC", "UNIT", "RUNS", "FAILED", "FIRST", "LAST", "MEAN", "MEDIAN", "CHANGE", "VERDICT"
  };

  /** A table per group: a header line naming the group, then one line per metric. */
  public static List<String> text(List<Row> rows) {
    List<String> out = new ArrayList<>();
    if (rows.isEmpty()) {
      out.add("(no runs to compare)");
      return out;
    }
    Group current = null;
    List<String[]> table = new ArrayList<>();
    for (Row r : rows) {
      if (!r.group().equals(current)) {
        flush(table, out);
        if (current != null) {
          out.add("");
        }
        current = r.group();
        out.add(current.label());
        table.add(HEADER);
      }
      table.add(
          new String[] {
            r.metric(),
            Fmt.or(r.unit()),
            Integer.toString(r.runs()),
            Integer.toString(r.failed()),
            Fmt.num(r.first()),
            Fmt.num(r.last()),
            Fmt.num(r.mean()),
            Fmt.num(r.median()),
            r.changePercent() == null ? "-" : Fmt.percent(BigDecimal.valueOf(r.changePercent())),
            r.verdict() + (r.reference() == null ? "" : " " + r.reference().describe())
          });
    }
    flush(table, out);
    return out;
  }

  private static void flush(List<String[]> table, List<String> out) {
    if (table.isEmpty()) {
      return;
    }
    out.addAll(Columns.align(table, "  "));
    table.clear();
  }

  /** The rows as a JSON array, one object per row with its group's fields. */
  public static String json(List<Row> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cluster", r.group().cluster());
      m.put("preset", r.group().preset());
      m.put("nodes", r.group().nodes());
      m.put("ranks", r.group().ranks());
      m.put("n", r.group().n());
      m.put("metric", r.metric());
      m.put("unit", r.unit());
      m.put("runs", r.runs());
      m.put("failedRuns", r.failed());
      m.put("first", r.first());
      m.put("last", r.last());
      m.put("mean", r.mean());
      m.put("median", r.median());
      m.put("changePercent", r.changePercent());
      m.put("verdict", r.verdict());
      if (r.reference() == null) {
        m.put("reference", null);
      } else {
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("value", r.reference().value());
        ref.put("low", r.reference().low());
        ref.put("high", r.reference().high());
        ref.put("unit", r.reference().unit());
        ref.put("where", r.reference().where());
        m.put("reference", ref);
      }
      out.add(m);
    }
    return Json.pretty(out);
  }
}
