package dev.clusterrun.core.screen;

import dev.clusterrun.core.Json;
import dev.clusterrun.core.screen.ScreenJudge.Cell;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A screen's verdict as people read it (a table), as programs do (JSON) and as CI does (JUnit). */
public final class ScreenReport {
  private ScreenReport() {}

  /** What the CLI prints: the table, or the JSON. */
  public static String render(ScreenJudge.Verdict v, boolean json) {
    return json ? json(v) : table(v);
  }

  /** The lines for stderr: the nodes that gave no figure, then what was written. */
  public static List<String> messages(ScreenOutcome out) {
    List<String> lines = new ArrayList<>();
    out.notRun().forEach((n, why) -> lines.add("clusterrun: " + n + ": " + why));
    out.notes().forEach(n -> lines.add("clusterrun: screen: " + n));
    return lines;
  }

  /** The node × metric table, the pairs, the references and what is flagged. */
  public static String table(ScreenJudge.Verdict v) {
    int w = 4;
    for (ScreenJudge.NodeRow r : v.nodes()) {
      w = Math.max(w, r.node().length());
    }
    StringBuilder b = new StringBuilder();
    b.append(pad("NODE", w));
    for (Metric m : v.metrics()) {
      b.append("  ").append(pad(m.label().toUpperCase(Locale.ROOT) + " (" + m.unit() + ")", 22));
    }
    trimLine(b);
    for (ScreenJudge.NodeRow r : v.nodes()) {
      b.append(pad(r.node(), w));
      for (Metric m : v.metrics()) {
        Cell c = r.cells().get(m);
        b.append("  ").append(pad(c == null ? "-" : cell(c), 22));
      }
      trimLine(b);
    }
    b.append("pairs:\n");
    for (ScreenJudge.PairRow p : v.pairs()) {
      b.append("  ").append(p.figure().a()).append('-').append(p.figure().b());
      for (Metric m : v.metrics()) {
        if (m.ofPair()) {
          b.append("  ").append(m.label()).append(' ').append(cell(p.cells().get(m)));
        }
      }
      if (p.blame() != null) {
        b.append("  slow: ").append("link".equals(p.blame()) ? "the link" : p.blame());
      }
      b.append('\n');
    }
    if (!v.rechecks().isEmpty()) {
      b.append("second look (flagged at first, measured again; the better kept): ")
          .append(
              String.join(
                  ", ",
                  v.rechecks().stream()
                      .map(
                          r ->
                              r.subject()
                                  + " "
                                  + r.metric().label()
                                  + " "
                                  + num(r.first())
                                  + " → "
                                  + num(r.again())
                                  + " "
                                  + r.metric().unit())
                      .toList()))
          .append('\n');
    }
    List<String> refs = new ArrayList<>();
    for (Metric m : v.metrics()) {
      refs.add(m.label() + " " + num(v.references().get(m)) + " " + m.unit());
    }
    b.append("medians: ")
        .append(String.join(", ", refs))
        .append("; tolerance ")
        .append(tolerances(v))
        .append('\n');
    List<String> expected = new ArrayList<>();
    for (Metric m : v.metrics()) {
      ScreenJudge.Expected e = v.expected().get(m);
      if (e != null) {
        expected.add(expected(m, e, v));
      }
    }
    if (!expected.isEmpty()) {
      b.append("references: ").append(String.join("; ", expected)).append('\n');
    }
    List<String> spreads = new ArrayList<>();
    for (Metric m : v.metrics()) {
      if (v.spreads().containsKey(m)) {
        spreads.add(m.label() + " " + pct(v.spreads().get(m)).substring(1));
      }
    }
    if (!spreads.isEmpty()) {
      b.append("repeats of one figure differed by up to: ")
          .append(String.join(", ", spreads))
          .append(
              " (a figure is flagged only when off by more than the tolerance and than this)\n");
    }
    b.append(verdictLine(v)).append('\n');
    return b.toString();
  }

  /** One line: nothing flagged, or the nodes and links that are. */
  public static String verdictLine(ScreenJudge.Verdict v) {
    if (v.clean()) {
      return "nothing flagged on " + v.nodes().size() + " nodes";
    }
    List<String> parts = new ArrayList<>();
    for (ScreenJudge.NodeRow r : v.nodes()) {
      for (Metric m : v.metrics()) {
        Cell c = r.cells().get(m);
        if (c != null && !c.ok()) {
          parts.add("node " + r.node() + " (" + cellWhy(v, m, c) + ")");
        }
      }
    }
    for (ScreenJudge.PairRow p : v.flaggedLinks()) {
      parts.add("link " + p.figure().a() + "-" + p.figure().b());
    }
    return "flagged: " + String.join("; ", parts);
  }

  /** The verdict as JSON. */
  public static String json(ScreenJudge.Verdict v) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("tolerance", v.tolerance());
    Map<String, Object> refs = new LinkedHashMap<>();
    Map<String, Object> spreads = new LinkedHashMap<>();
    for (Metric m : v.metrics()) {
      refs.put(m.label(), v.references().get(m));
      if (v.spreads().containsKey(m)) {
        spreads.put(m.label(), v.spreads().get(m));
      }
    }
    root.put("references", refs);
    Map<String, Object> tolerances = new LinkedHashMap<>();
    Map<String, Object> expected = new LinkedHashMap<>();
    for (Metric m : v.metrics()) {
      tolerances.put(m.label(), v.toleranceOf(m));
      ScreenJudge.Expected e = v.expected().get(m);
      if (e != null) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("value", e.value());
        x.put("tolerance", e.bar() != null ? e.bar() : v.toleranceOf(m));
        x.put("where", e.where());
        expected.put(m.label(), x);
      }
    }
    root.put("tolerances", tolerances);
    root.put("expected", expected);
    root.put("repeatSpreads", spreads);
    List<Object> nodes = new ArrayList<>();
    for (ScreenJudge.NodeRow r : v.nodes()) {
      Map<String, Object> n = new LinkedHashMap<>();
      n.put("node", r.node());
      n.put("flagged", r.flagged());
      r.cells().forEach((m, c) -> n.put(m.label(), cellJson(c)));
      nodes.add(n);
    }
    root.put("nodes", nodes);
    List<Object> pairs = new ArrayList<>();
    for (ScreenJudge.PairRow p : v.pairs()) {
      Map<String, Object> n = new LinkedHashMap<>();
      n.put("a", p.figure().a());
      n.put("b", p.figure().b());
      p.cells().forEach((m, c) -> n.put(m.label(), cellJson(c)));
      n.put("blame", p.blame());
      pairs.add(n);
    }
    root.put("pairs", pairs);
    List<Object> rechecks = new ArrayList<>();
    for (ScreenJudge.Recheck r : v.rechecks()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("subject", r.subject());
      x.put("metric", r.metric().label());
      x.put("first", r.first());
      x.put("again", r.again());
      rechecks.add(x);
    }
    root.put("secondLook", rechecks);
    root.put("flaggedNodes", v.flaggedNodes());
    root.put(
        "flaggedLinks",
        v.flaggedLinks().stream().map(p -> List.of(p.figure().a(), p.figure().b())).toList());
    return Json.pretty(root);
  }

  /**
   * JUnit XML (the Ant/Jenkins shape {@code bench --junit} writes): one suite {@code clusterrun
   * screen}, one test case per node (a failure when it is flagged, with the figures that flagged
   * it; an error when it gave no figure) and one per link that is flagged.
   *
   * @param v the verdict, or null when nodes could not run
   * @param notRun node → why it gave no figure
   */
  public static String junit(ScreenJudge.Verdict v, Map<String, String> notRun, Instant now) {
    List<String> cases = new ArrayList<>();
    int failures = 0;
    if (v != null) {
      for (ScreenJudge.NodeRow r : v.nodes()) {
        String why = r.flagged() ? nodeWhy(v, r) : null;
        failures += why == null ? 0 : 1;
        cases.add(testCase("node " + r.node(), why, "failure"));
      }
      for (ScreenJudge.PairRow p : v.flaggedLinks()) {
        failures++;
        String name = "link " + p.figure().a() + "-" + p.figure().b();
        cases.add(testCase(name, "slow in both directions of its pair only", "failure"));
      }
    }
    notRun.forEach((node, why) -> cases.add(testCase("node " + node, why, "error")));
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
        .append("  <testsuite name=\"clusterrun screen\" tests=\"")
        .append(cases.size())
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"")
        .append(notRun.size())
        .append("\" skipped=\"0\" timestamp=\"")
        .append(
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
                .withZone(ZoneOffset.UTC)
                .format(now))
        .append("\">\n");
    cases.forEach(b::append);
    b.append("  </testsuite>\n</testsuites>\n");
    return b.toString();
  }

  /**
   * Why a figure is flagged: {@code bandwidth 11.7 MB/s, median 3293 MB/s, -99.6%}, and when it
   * misses its reference {@code , reference 3000 MB/s (ci/screen at refs.yaml:6:22), -99.6%}.
   */
  private static String cellWhy(ScreenJudge.Verdict v, Metric m, Cell c) {
    String why =
        m.label()
            + " "
            + num(c.value())
            + " "
            + m.unit()
            + ", median "
            + num(v.references().get(m))
            + " "
            + m.unit()
            + ", "
            + pct(c.deviation());
    ScreenJudge.Expected e = v.expected().get(m);
    if (c.missed() != null && e != null) {
      why +=
          ", reference "
              + num(e.value())
              + " "
              + m.unit()
              + " ("
              + e.where()
              + "), "
              + pct(c.missed());
    }
    return why;
  }

  /** {@code 10.0%}, or {@code 10.0% (bandwidth 15.0%)} where a metric's differs. */
  private static String tolerances(ScreenJudge.Verdict v) {
    List<String> other = new ArrayList<>();
    for (Metric m : v.metrics()) {
      if (v.toleranceOf(m) != v.tolerance()) {
        other.add(m.label() + " " + num(v.toleranceOf(m) * 100) + "%");
      }
    }
    return num(v.tolerance() * 100)
        + "%"
        + (other.isEmpty() ? "" : " (" + String.join(", ", other) + ")");
  }

  /** {@code bandwidth 3000 MB/s -10.0% (ci/screen at refs.yaml:6:22)}. */
  private static String expected(Metric m, ScreenJudge.Expected e, ScreenJudge.Verdict v) {
    double bar = e.bar() != null ? e.bar() : v.toleranceOf(m);
    return m.label()
        + " "
        + num(e.value())
        + " "
        + m.unit()
        + " "
        + (m.higherIsBetter() ? "-" : "+")
        + num(bar * 100)
        + "% ("
        + e.where()
        + ")";
  }

  private static String nodeWhy(ScreenJudge.Verdict v, ScreenJudge.NodeRow r) {
    List<String> parts = new ArrayList<>();
    r.cells()
        .forEach(
            (m, c) -> {
              if (!c.ok()) {
                parts.add(cellWhy(v, m, c));
              }
            });
    return String.join("; ", parts);
  }

  private static String testCase(String name, String problem, String kind) {
    StringBuilder b = new StringBuilder();
    b.append("    <testcase classname=\"screen\" name=\"").append(xml(name)).append('"');
    if (problem == null) {
      return b.append("/>\n").toString();
    }
    return b.append(">\n      <")
        .append(kind)
        .append(" message=\"")
        .append(xml(problem))
        .append("\"/>\n    </testcase>\n")
        .toString();
  }

  private static String xml(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints()
        .forEach(
            cp -> {
              switch (cp) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> {
                  if (cp >= 0x20 || cp == '\t') {
                    b.appendCodePoint(cp);
                  }
                }
              }
            });
    return b.toString();
  }

  private static Map<String, Object> cellJson(Cell c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("value", c.value());
    m.put("deviation", c.deviation());
    m.put("ok", c.ok());
    if (c.missed() != null) {
      m.put("offReference", c.missed());
    }
    return m;
  }

  private static String cell(Cell c) {
    return (c.ok() ? "✓ " : "✗ ") + num(c.value()) + " (" + pct(c.deviation()) + ")";
  }

  private static String num(double x) {
    return String.format(Locale.ROOT, Math.abs(x) >= 100 || x == 0 ? "%.0f" : "%.3g", x);
  }

  private static String pct(double d) {
    return String.format(Locale.ROOT, "%+.1f%%", d * 100);
  }

  /** Ends a table line without its padding. */
  private static void trimLine(StringBuilder b) {
    int end = b.length();
    while (end > 0 && b.charAt(end - 1) == ' ') {
      end--;
    }
    b.setLength(end);
    b.append('\n');
  }

  private static String pad(String s, int w) {
    return s.length() >= w ? s : s + " ".repeat(w - s.length());
  }
}
