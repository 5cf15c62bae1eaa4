package dev.clusterrun.core.bench;

import dev.clusterrun.core.Ascii;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clusterrun results report --html FILE}: one self-contained HTML page (no script, no
 * network, no external font or style) for an operator's morning look. Per cluster, preset and size
 * it shows the comparison table and a trend chart per metric, drawn here as inline SVG: the value
 * over time, the reference band and the reference value when references are given, failed runs
 * marked with a red cross. Then every run in a table, linking to its run directory. Readable in a
 * browser and on paper.
 *
 * <p>Chart elements carry classes a test (or a style sheet) can find: {@code point} for a passed
 * run, {@code failed} for a failed one, {@code trend} for the line, {@code ref-band} and {@code
 * ref-value} for the reference. A figure of one node beside the run's median of it ({@code
 * screen}'s {@code node3/bandwidth_MBps} beside {@code median/bandwidth_MBps}) is drawn with the
 * median as a grey dashed line ({@code median}), so the node that drifts from the others shows.
 */
public final class HtmlReport {
  private HtmlReport() {}

  /**
   * What to render.
   *
   * @param results the runs, in any order
   * @param options metrics, allowed change and references (see {@link Comparison})
   * @param source where the runs came from, for the page header (the results log)
   * @param reportDir the folder the page is written to: run directories are linked relative to it
   * @param now the time the report is made
   */
  public record Input(
      List<BenchResult> results,
      Comparison.Options options,
      String source,
      Path reportDir,
      Instant now) {}

  static final int W = 600;
  static final int H = 260;
  static final int LEFT = 66;
  static final int RIGHT = 16;
  static final int TOP = 14;
  static final int BOTTOM = 42;

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SHORT =
      DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneOffset.UTC);

  public static String render(Input in) {
    StringBuilder b = new StringBuilder();
    List<Comparison.Row> rows = Comparison.rows(in.results(), in.options());
    Map<Comparison.Group, List<BenchResult>> groups = Comparison.groups(in.results());
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    b.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    b.append("<title>clusterrun benchmark report</title>\n");
    b.append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");

    b.append("<header>\n<h1>Benchmark report</h1>\n<p class=\"meta\">");
    b.append(in.results().size()).append(in.results().size() == 1 ? " run" : " runs");
    Instant from = null;
    Instant to = null;
    for (BenchResult r : in.results()) {
      if (r.startTime() != null) {
        from = from == null || r.startTime().isBefore(from) ? r.startTime() : from;
        to = to == null || r.startTime().isAfter(to) ? r.startTime() : to;
      }
    }
    if (from != null) {
      b.append(", ").append(esc(Fmt.minute(from))).append(" to ").append(esc(Fmt.minute(to)));
    }
    b.append(", from <code>").append(esc(in.source())).append("</code>");
    References refs = in.options().references();
    if (refs != null) {
      b.append("; references <code>").append(esc(refs.source())).append("</code>");
    }
    b.append(". Made ").append(esc(Fmt.minute(in.now()))).append(" by clusterrun.</p>\n");
    b.append("</header>\n");

    if (in.results().isEmpty()) {
      b.append("<p>No runs recorded yet.</p>\n</body>\n</html>\n");
      return b.toString();
    }

    // Contents: one line per group with its verdicts.
    b.append("<nav>\n<h2>Contents</h2>\n<ul>\n");
    for (Comparison.Group g : groups.keySet()) {
      long bad = rows.stream().filter(r -> r.group().equals(g) && r.bad()).count();
      int failed = (int) groups.get(g).stream().filter(r -> !r.passed()).count();
      b.append("<li><a href=\"#")
          .append(esc(g.id()))
          .append("\">")
          .append(esc(g.label()))
          .append("</a> ")
          .append(groups.get(g).size())
          .append(groups.get(g).size() == 1 ? " run" : " runs");
      if (failed > 0) {
        b.append(", <span class=\"bad\">").append(failed).append(" failed</span>");
      }
      if (bad > 0) {
        b.append(", <span class=\"bad\">")
            .append(bad)
            .append(bad == 1 ? " metric" : " metrics")
            .append(" regressed or off reference</span>");
      }
      b.append("</li>\n");
    }
    b.append("<li><a href=\"#runs\">Every run</a></li>\n</ul>\n</nav>\n");

    for (Map.Entry<Comparison.Group, List<BenchResult>> e : groups.entrySet()) {
      Comparison.Group g = e.getKey();
      List<Comparison.Row> gr = rows.stream().filter(r -> r.group().equals(g)).toList();
      b.append("<section class=\"group\" id=\"").append(esc(g.id())).append("\">\n");
      b.append("<h2>").append(esc(g.label())).append("</h2>\n");
      summaryTable(b, gr);
      b.append("<div class=\"charts\">\n");
      for (Comparison.Row r : gr) {
        chart(b, g, e.getValue(), r, refs);
      }
      b.append("</div>\n</section>\n");
    }

    runsTable(b, in);
    b.append("<footer><p>")
        .append(
            "Charts: blue dots are passed runs (hover for details), red crosses failed runs"
                + " (at their value when they have one, else on the axis), the green band the"
                + " reference's bounds and the dashed line its value. Numbers of failed runs are"
                + " left out of first, last, mean and median.")
        .append("</p></footer>\n</body>\n</html>\n");
    return b.toString();
  }

  private static void summaryTable(StringBuilder b, List<Comparison.Row> rows) {
    b.append("<div class=\"wide\"><table class=\"summary\">\n<thead><tr>");
    for (String h :
        List.of(
            "metric", "unit", "runs", "failed", "first", "last", "mean", "median", "change",
            "verdict")) {
      b.append("<th>").append(h).append("</th>");
    }
    b.append("</tr></thead>\n<tbody>\n");
    for (Comparison.Row r : rows) {
      b.append("<tr>");
      td(b, r.metric(), "");
      td(b, Fmt.or(r.unit()), "");
      td(b, Integer.toString(r.runs()), "num");
      td(b, Integer.toString(r.failed()), r.failed() > 0 ? "num bad" : "num");
      td(b, Fmt.num(r.first()), "num");
      td(b, Fmt.num(r.last()), "num");
      td(b, Fmt.num(r.mean()), "num");
      td(b, Fmt.num(r.median()), "num");
      td(
          b,
          r.changePercent() == null ? "-" : Fmt.percent(BigDecimal.valueOf(r.changePercent())),
          "num");
      String cls = r.bad() ? "bad" : r.verdict().equals(Comparison.IMPROVED) ? "good" : "";
      b.append("<td class=\"verdict").append(cls.isEmpty() ? "" : " " + cls).append("\">");
      b.append(esc(r.verdict()));
      if (r.reference() != null) {
        b.append("<div class=\"ref\" title=\"")
            .append(esc(r.reference().describe() + ", " + r.reference().where()))
            .append("\">")
            .append(esc(r.reference().interval()))
            .append("</div>");
      }
      b.append("</td></tr>\n");
    }
    b.append("</tbody>\n</table></div>\n");
  }

  private static void td(StringBuilder b, String text, String cls) {
    b.append("<td").append(cls.isEmpty() ? "" : " class=\"" + cls + "\"").append('>');
    b.append(esc(text)).append("</td>");
  }

  // ---------------------------------------------------------------------------------------------
  // Charts

  private static void chart(
      StringBuilder b,
      Comparison.Group g,
      List<BenchResult> runs,
      Comparison.Row row,
      References refs) {
    new Chart(b, g, runs, row, refs).draw();
  }

  /** One metric's trend chart: values and reference bounds per run, then the SVG. */
  private static final class Chart {
    final StringBuilder b;
    final Comparison.Group g;
    final List<BenchResult> runs;
    final Comparison.Row row;
    final int k;
    final Double[] values;
    final References.Bound[] bounds;

    /** The run's median of the same figure, for a node's figure ({@code NODE/KEY}); else null. */
    final Double[] medians;

    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    double y0;
    double y1;
    double[] xs;
    final int plotBottom = H - BOTTOM;
    final int plotRight = W - RIGHT;

    Chart(
        StringBuilder b,
        Comparison.Group g,
        List<BenchResult> runs,
        Comparison.Row row,
        References refs) {
      this.b = b;
      this.g = g;
      this.runs = runs;
      this.row = row;
      this.k = runs.size();
      this.values = new Double[k];
      this.bounds = new References.Bound[k];
      this.medians = new Double[k];
      scan(refs);
    }

    private void scan(References refs) {
      String metric = row.metric();
      int slash = metric.indexOf('/');
      String median =
          slash > 0 && !metric.startsWith(MEDIAN) ? MEDIAN + metric.substring(slash + 1) : null;
      for (int i = 0; i < k; i++) {
        BenchResult r = runs.get(i);
        values[i] = finite(References.valueOf(r, metric));
        medians[i] = median == null ? null : finite(r.metrics().get(median));
        for (Double v : new Double[] {values[i], medians[i]}) {
          if (v != null) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
          }
        }
        if (refs != null && g.cluster() != null) {
          References.Entry e = refs.find(g.cluster(), g.preset(), References.Size.of(r));
          bounds[i] = e == null ? null : e.metrics().get(metric);
          if (bounds[i] != null) {
            lo = Math.min(lo, bounds[i].value());
            hi = Math.max(hi, bounds[i].value());
            if (bounds[i].low() != null) {
              lo = Math.min(lo, bounds[i].low());
            }
            if (bounds[i].high() != null) {
              hi = Math.max(hi, bounds[i].high());
            }
          }
        }
      }
    }

    void draw() {
      String metric = row.metric();
      b.append("<figure class=\"chart\">\n<figcaption>")
          .append(esc(metric))
          .append(
              row.unit() == null ? "" : " <span class=\"unit\">(" + esc(row.unit()) + ")</span>")
          .append(" <span class=\"verdict ")
          .append(row.bad() ? "bad" : "")
          .append("\">")
          .append(esc(row.verdict()))
          .append("</span></figcaption>\n");
      b.append("<svg class=\"trend-chart\" viewBox=\"0 0 ")
          .append(W)
          .append(' ')
          .append(H)
          .append("\" role=\"img\" aria-label=\"")
          .append(esc(metric + " over time, " + g.label()))
          .append("\">\n");
      if (lo == Double.POSITIVE_INFINITY) {
        b.append("<text x=\"").append(W / 2).append("\" y=\"").append(H / 2);
        b.append("\" text-anchor=\"middle\" class=\"axis\">no value in any run</text>\n");
        b.append("</svg>\n</figure>\n");
        return;
      }
      double[] ticks = niceTicks(lo, hi);
      y0 = ticks[0];
      y1 = ticks[ticks.length - 1];
      xs = xPositions(runs);

      // grid and y axis
      for (double t : ticks) {
        double y = y(t, y0, y1);
        b.append("<line class=\"grid\" x1=\"")
            .append(LEFT)
            .append("\" x2=\"")
            .append(plotRight)
            .append("\" y1=\"")
            .append(f(y))
            .append("\" y2=\"")
            .append(f(y))
            .append("\"/>\n");
        b.append("<text class=\"axis\" x=\"")
            .append(LEFT - 6)
            .append("\" y=\"")
            .append(f(y + 4))
            .append("\" text-anchor=\"end\">")
            .append(esc(Fmt.num(t)))
            .append("</text>\n");
      }
      b.append("<line class=\"axis-line\" x1=\"")
          .append(LEFT)
          .append("\" x2=\"")
          .append(plotRight)
          .append("\" y1=\"")
          .append(plotBottom)
          .append("\" y2=\"")
          .append(plotBottom)
          .append("\"/>\n");

      referenceBands();
      xLabels();
      trend();
      b.append("</svg>\n</figure>\n");
    }

    /** One rectangle per stretch of runs sharing a reference. */
    private void referenceBands() {
      int i = 0;
      while (i < k) {
        if (bounds[i] == null) {
          i++;
          continue;
        }
        int j = i;
        while (j + 1 < k && bounds[j + 1] != null && bounds[j + 1].equals(bounds[i])) {
          j++;
        }
        References.Bound rb = bounds[i];
        double xa = i == 0 ? LEFT : (xs[i - 1] + xs[i]) / 2;
        double xb = j == k - 1 ? plotRight : (xs[j] + xs[j + 1]) / 2;
        double top = rb.high() == null ? TOP : y(rb.high(), y0, y1);
        double bottom = rb.low() == null ? plotBottom : y(rb.low(), y0, y1);
        b.append("<rect class=\"ref-band\" x=\"")
            .append(f(xa))
            .append("\" y=\"")
            .append(f(top))
            .append("\" width=\"")
            .append(f(xb - xa))
            .append("\" height=\"")
            .append(f(Math.max(0.5, bottom - top)))
            .append("\"><title>")
            .append(esc("reference " + rb.describe() + ", " + rb.where()))
            .append("</title></rect>\n");
        double yv = y(rb.value(), y0, y1);
        b.append("<line class=\"ref-value\" x1=\"")
            .append(f(xa))
            .append("\" x2=\"")
            .append(f(xb))
            .append("\" y1=\"")
            .append(f(yv))
            .append("\" y2=\"")
            .append(f(yv))
            .append("\"/>\n");
        i = j + 1;
      }
    }

    /** First, last and up to three labels between. */
    private void xLabels() {
      List<Integer> labelled = new ArrayList<>();
      labelled.add(0);
      int step = Math.max(1, (k - 1) / 4);
      for (int t = step; t < k - 1; t += step) {
        if (xs[t] - xs[labelled.get(labelled.size() - 1)] > 90 && xs[k - 1] - xs[t] > 90) {
          labelled.add(t);
        }
      }
      if (k > 1) {
        labelled.add(k - 1);
      }
      boolean wide = span(runs).compareTo(Duration.ofDays(2)) > 0;
      for (int t : labelled) {
        Instant when = runs.get(t).startTime();
        String label = when == null ? "#" + (t + 1) : wide ? DAY.format(when) : SHORT.format(when);
        String anchor = k == 1 ? "middle" : t == 0 ? "start" : t == k - 1 ? "end" : "middle";
        b.append("<text class=\"axis\" x=\"")
            .append(f(xs[t]))
            .append("\" y=\"")
            .append(plotBottom + 18)
            .append("\" text-anchor=\"")
            .append(anchor)
            .append("\">")
            .append(esc(label))
            .append("</text>\n");
      }
      b.append("<text class=\"axis\" x=\"")
          .append(f((LEFT + plotRight) / 2.0))
          .append("\" y=\"")
          .append(H - 6)
          .append("\" text-anchor=\"middle\">start time (UTC)</text>\n");
    }

    private static Double finite(Double v) {
      return v == null || v.isNaN() || v.isInfinite() ? null : v;
    }

    /** The run's median of a node's figure, a grey dashed line with a point per run. */
    private void medianLine() {
      StringBuilder line = new StringBuilder();
      int n = 0;
      for (int t = 0; t < k; t++) {
        if (medians[t] != null) {
          line.append(n++ == 0 ? "" : " ")
              .append(f(xs[t]))
              .append(',')
              .append(f(y(medians[t], y0, y1)));
        }
      }
      if (n == 0) {
        return;
      }
      // inline styles: pages without such figures stay as they were
      b.append("<polyline class=\"median\" style=\"fill: none; stroke: #8c959f; stroke-width: 1.4;")
          .append(" stroke-dasharray: 3 3\" points=\"")
          .append(n == 1 ? line + " " + line : line)
          .append("\"><title>the run's median of this figure</title></polyline>\n");
    }

    /** {@code (median 1400 MB/s, -11.8%)} for a node's figure, else nothing. */
    private String besideMedian(int t) {
      if (values[t] == null || medians[t] == null || medians[t] == 0) {
        return "";
      }
      return String.format(
          Locale.ROOT,
          " (median %s%s, %+.1f%%)",
          Fmt.num(medians[t]),
          Fmt.unitSuffix(row.unit()),
          (values[t] - medians[t]) / medians[t] * 100);
    }

    /** The trend through the passed runs, every run's point (failed runs crossed). */
    private void trend() {
      medianLine();
      StringBuilder line = new StringBuilder();
      int passedPoints = 0;
      for (int t = 0; t < k; t++) {
        if (runs.get(t).passed() && values[t] != null) {
          line.append(passedPoints++ == 0 ? "" : " ")
              .append(f(xs[t]))
              .append(',')
              .append(f(y(values[t], y0, y1)));
        }
      }
      if (passedPoints > 1) {
        b.append("<polyline class=\"trend\" points=\"").append(line).append("\"/>\n");
      }
      for (int t = 0; t < k; t++) {
        BenchResult r = runs.get(t);
        String tip =
            Fmt.minute(r.startTime())
                + "  "
                + r.verdict()
                + (values[t] == null ? "" : "  " + Fmt.num(values[t]) + Fmt.unitSuffix(row.unit()))
                + besideMedian(t)
                + (r.runId() == null ? "" : "  run " + r.runId())
                + (r.passed() ? "" : "\n" + r.reason());
        if (r.passed() && values[t] != null) {
          b.append("<circle class=\"point\" cx=\"")
              .append(f(xs[t]))
              .append("\" cy=\"")
              .append(f(y(values[t], y0, y1)))
              .append("\" r=\"4\"><title>")
              .append(esc(tip))
              .append("</title></circle>\n");
        } else if (!r.passed()) {
          double cy = values[t] == null ? plotBottom : y(values[t], y0, y1);
          double cx = xs[t];
          b.append("<path class=\"failed\" d=\"")
              .append(stroke(cx - 5, cy - 5, cx + 5, cy + 5))
              .append(' ')
              .append(stroke(cx - 5, cy + 5, cx + 5, cy - 5))
              .append("\"><title>")
              .append(esc(tip))
              .append("</title></path>\n");
        }
      }
    }
  }

  /** The prefix of a figure that is the run's median of its nodes' ({@code median/KEY}). */
  static final String MEDIAN = "median/";

  private static Duration span(List<BenchResult> runs) {
    Instant a = runs.get(0).startTime();
    Instant z = runs.get(runs.size() - 1).startTime();
    return a == null || z == null ? Duration.ZERO : Duration.between(a, z);
  }

  /** X of each run: by start time when every run has one, else evenly by order. */
  static double[] xPositions(List<BenchResult> runs) {
    int k = runs.size();
    double[] xs = new double[k];
    double left = LEFT + 14;
    double right = W - RIGHT - 14;
    boolean timed = runs.stream().allMatch(r -> r.startTime() != null);
    long t0 = timed ? runs.get(0).startTime().toEpochMilli() : 0;
    long t1 = timed ? runs.get(k - 1).startTime().toEpochMilli() : 0;
    for (int i = 0; i < k; i++) {
      if (k == 1) {
        xs[i] = (left + right) / 2;
      } else if (timed && t1 > t0) {
        xs[i] = left + (right - left) * (runs.get(i).startTime().toEpochMilli() - t0) / (t1 - t0);
      } else {
        xs[i] = left + (right - left) * i / (k - 1);
      }
    }
    return xs;
  }

  private static double y(double v, double y0, double y1) {
    double plot = H - BOTTOM - TOP;
    return TOP + plot * (1 - (v - y0) / (y1 - y0));
  }

  /** Round axis values around [lo, hi]: 1, 2 or 5 times a power of ten apart, at least two. */
  static double[] niceTicks(double lo, double hi) {
    boolean positive = lo >= 0;
    if (hi <= lo) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    } else {
      double pad = (hi - lo) * 0.08;
      lo -= pad;
      hi += pad;
    }
    double raw = (hi - lo) / 5;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = mag;
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * mag >= raw) {
        step = m * mag;
        break;
      }
    }
    double start = Math.floor(lo / step) * step;
    if (positive && start < 0) {
      start = 0; // no negative axis for figures that cannot be negative
    }
    double end = Math.ceil(hi / step) * step;
    int n = (int) Math.round((end - start) / step) + 1;
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = BigDecimal.valueOf(start + i * step).round(new MathContext(12)).doubleValue();
    }
    return out;
  }

  /** One straight line of an SVG path. */
  private static String stroke(double x1, double y1, double x2, double y2) {
    return "M" + f(x1) + "," + f(y1) + " L" + f(x2) + "," + f(y2);
  }

  private static String f(double v) {
    return BigDecimal.valueOf(Math.round(v * 10) / 10.0).stripTrailingZeros().toPlainString();
  }

  // ---------------------------------------------------------------------------------------------
  // Runs

  private static void runsTable(StringBuilder b, Input in) {
    b.append(
        "<section id=\"runs\">\n<h2>Every run</h2>\n<div class=\"wide\"><table class=\"runs\">\n"
            + "<thead><tr>");
    for (String h :
        List.of(
            "started (UTC)",
            "cluster",
            "preset",
            "verdict",
            "result",
            "N",
            "nodes",
            "ranks",
            "image",
            "run directory")) {
      b.append("<th>").append(h).append("</th>");
    }
    b.append("</tr></thead>\n<tbody>\n");
    List<BenchResult> sorted = new ArrayList<>(in.results());
    sorted.sort(
        Comparator.comparing(
            (BenchResult r) -> r.startTime() == null ? Instant.EPOCH : r.startTime()));
    for (BenchResult r : sorted) {
      b.append("<tr class=\"").append(r.passed() ? "passed" : "failed-run").append("\">");
      td(b, Fmt.minute(r.startTime()), "");
      td(b, Fmt.or(r.cluster()), "");
      td(b, r.preset(), "");
      b.append("<td class=\"").append(r.passed() ? "good" : "bad").append("\"");
      if (!r.passed()) {
        b.append(" title=\"").append(esc(r.reason())).append("\"");
      }
      b.append(">").append(esc(r.verdict().name()));
      if (!r.passed()) {
        b.append("<div class=\"reason\">").append(esc(r.reason())).append("</div>");
      }
      b.append("</td>");
      Metric h = r.headline();
      td(b, h == null ? "-" : h.name() + " " + Fmt.num(h.value()) + " " + h.unit(), "num");
      td(b, Fmt.num(r.n()), "num");
      td(b, r.nodes().isEmpty() ? "-" : String.join(", ", r.nodes()), "");
      td(b, Fmt.num(r.ranks()), "num");
      td(b, Fmt.or(r.image()), "");
      b.append("<td>");
      if (r.runDir() != null) {
        String href = link(in.reportDir(), r.runDir());
        b.append("<a href=\"")
            .append(esc(href))
            .append("\">")
            .append(esc(r.runId() == null ? r.runDir() : r.runId()))
            .append("</a>");
      } else {
        b.append("-");
      }
      b.append("</td></tr>\n");
    }
    b.append("</tbody>\n</table></div>\n</section>\n");
  }

  /**
   * A link from the report's folder to a run directory: relative when both are absolute paths (the
   * page keeps working when the shared filesystem is mounted elsewhere), percent-encoded.
   */
  static String link(Path reportDir, String runDir) {
    Path target = Path.of(runDir);
    if (reportDir != null && reportDir.isAbsolute() && target.isAbsolute()) {
      Path rel = reportDir.normalize().relativize(target.normalize());
      StringBuilder b = new StringBuilder();
      for (Path part : rel) {
        b.append(encode(part.toString())).append('/');
      }
      return b.length() == 0 ? "./" : b.toString();
    }
    return target.toUri().toString();
  }

  private static String encode(String segment) {
    StringBuilder b = new StringBuilder();
    for (byte x : segment.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if (Ascii.letterDigitOr(c, "-._~+")) {
        b.append((char) c);
      } else {
        b.append('%').append(String.format("%02X", c));
      }
    }
    return b.toString();
  }

  /** Text for HTML, in content and in double-quoted attributes. */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  static final String CSS =
      """
      :root { color-scheme: light; }
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial,
        sans-serif; margin: 1.5rem auto; max-width: 1280px; padding: 0 1rem; color: #1b1f24;
        background: #fff; line-height: 1.4; }
      h1 { font-size: 1.6rem; margin: 0 0 .2rem; }
      h2 { font-size: 1.2rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid #d0d7de;
        padding-bottom: .2rem; }
      .meta { color: #57606a; margin: 0; }
      code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; }
      nav ul { margin: .2rem 0; padding-left: 1.2rem; }
      table { border-collapse: collapse; font-size: .9rem; margin: .4rem 0 .8rem; }
      th, td { border-bottom: 1px solid #d8dee4; padding: .25rem .6rem; text-align: left;
        vertical-align: top; }
      th { background: #f6f8fa; font-weight: 600; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      td.verdict { white-space: nowrap; }
      td .ref { color: #57606a; font-weight: normal; font-size: .85em; }
      .wide { overflow-x: auto; }
      .bad { color: #b42318; font-weight: 600; }
      .good { color: #1a7f37; }
      .reason { color: #57606a; font-weight: normal; font-size: .85em; max-width: 28rem; }
      .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr));
        gap: .8rem 1.2rem; }
      figure.chart { margin: 0; border: 1px solid #d8dee4; border-radius: 6px; padding: .4rem
        .5rem .2rem; break-inside: avoid; page-break-inside: avoid; }
      figcaption { font-weight: 600; font-size: .95rem; }
      figcaption .unit { font-weight: normal; color: #57606a; }
      figcaption .verdict { font-weight: normal; color: #57606a; float: right; }
      figcaption .verdict.bad { color: #b42318; font-weight: 600; }
      svg.trend-chart { width: 100%; height: auto; display: block; }
      svg .grid { stroke: #eaeef2; stroke-width: 1; }
      svg .axis-line { stroke: #8c959f; stroke-width: 1; }
      svg .axis { fill: #57606a; font-size: 11px; }
      svg .ref-band { fill: #2da44e; fill-opacity: .16; stroke: #2da44e; stroke-opacity: .35; }
      svg .ref-value { stroke: #1a7f37; stroke-width: 1.2; stroke-dasharray: 5 4; }
      svg .trend { fill: none; stroke: #0969da; stroke-width: 1.6; }
      svg .point { fill: #0969da; stroke: #fff; stroke-width: 1.2; }
      svg .failed { fill: none; stroke: #cf222e; stroke-width: 2.4; stroke-linecap: round; }
      tr.failed-run td { background: #fff5f5; }
      footer { color: #57606a; font-size: .85rem; margin-top: 1.5rem; }
      a { color: #0969da; }
      @media print {
        body { margin: 0; max-width: none; font-size: 10pt; }
        nav { display: none; }
        .charts { grid-template-columns: repeat(2, 1fr); }
        section.group { break-before: auto; }
        h2 { break-after: avoid; }
        a { color: inherit; text-decoration: none; }
      }
      """;
}
