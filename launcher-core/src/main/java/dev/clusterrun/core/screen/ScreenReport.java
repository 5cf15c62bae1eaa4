package dev.clusterrun.core.screen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.clusterrun.core.screen.ScreenJudge.Cell;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A screen's verdict as people read it (a table) and as programs do (JSON). */
public final class ScreenReport {
  private ScreenReport() {}

  /** The node × metric table, the pairs, the references and what is flagged. */
  public static String table(ScreenJudge.Verdict v) {
    int w = 4;
    for (ScreenJudge.NodeRow r : v.nodes()) {
      w = Math.max(w, r.node().length());
    }
    StringBuilder b = new StringBuilder();
    b.append(pad("NODE", w));
    for (Metric m : Metric.values()) {
      b.append("  ").append(pad(m.label().toUpperCase(Locale.ROOT) + " (" + m.unit() + ")", 24));
    }
    b.append('\n');
    for (ScreenJudge.NodeRow r : v.nodes()) {
      b.append(pad(r.node(), w));
      for (Metric m : Metric.values()) {
        b.append("  ").append(pad(cell(r.cells().get(m)), 24));
      }
      b.append('\n');
    }
    b.append("pairs:\n");
    for (ScreenJudge.PairRow p : v.pairs()) {
      b.append("  ").append(p.figure().a()).append('-').append(p.figure().b());
      for (Metric m : Metric.values()) {
        b.append("  ").append(m.label()).append(' ').append(cell(p.cells().get(m)));
      }
      if (p.blame() != null) {
        b.append("  slow: ").append("link".equals(p.blame()) ? "the link" : p.blame());
      }
      b.append('\n');
    }
    b.append(
        String.format(
            Locale.ROOT,
            "reference (median over the nodes of each node's better pair): bandwidth %s MB/s,"
                + " latency %s us; tolerance %s%%%n",
            num(v.references().get(Metric.BANDWIDTH)),
            num(v.references().get(Metric.LATENCY)),
            num(v.tolerance() * 100)));
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
      for (Metric m : Metric.values()) {
        Cell c = r.cells().get(m);
        if (!c.ok()) {
          parts.add(
              "node "
                  + r.node()
                  + " ("
                  + m.label()
                  + " "
                  + num(c.value())
                  + " "
                  + m.unit()
                  + ", median "
                  + num(v.references().get(m))
                  + ", "
                  + pct(c.deviation())
                  + ")");
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
    v.references().forEach((m, x) -> refs.put(m.label(), x));
    root.put("references", refs);
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
    root.put("flaggedNodes", v.flaggedNodes());
    root.put(
        "flaggedLinks",
        v.flaggedLinks().stream().map(p -> List.of(p.figure().a(), p.figure().b())).toList());
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root)
          + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> cellJson(Cell c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("value", c.value());
    m.put("deviation", c.deviation());
    m.put("ok", c.ok());
    return m;
  }

  private static String cell(Cell c) {
    return (c.ok() ? "✓ " : "✗ ") + num(c.value()) + " (" + pct(c.deviation()) + ")";
  }

  private static String num(double x) {
    return String.format(Locale.ROOT, "%.1f", x);
  }

  private static String pct(double d) {
    return String.format(Locale.ROOT, "%+.1f%%", d * 100);
  }

  private static String pad(String s, int w) {
    return s.length() >= w ? s : s + " ".repeat(w - s.length());
  }
}
