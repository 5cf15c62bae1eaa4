package dev.clusterrun.core.bench;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * JUnit XML for CI, in the common Ant/Jenkins shape: {@code <testsuites>} holding one {@code
 * <testsuite>} per run (attributes name, package, id, timestamp, hostname, tests, failures, errors,
 * skipped, time; children properties, testcase…, system-out, system-err). Each run is a test case
 * named after the preset, with a {@code <failure>} when it is FAILED or PARSE_ERROR (the type says
 * which); a baseline comparison is a second case, {@code <preset> vs baseline}, failing on a
 * regression. The metrics go into {@code <properties>}; the summary lines into system-out.
 */
public final class JUnitReport {
  private JUnitReport() {}

  /** One run and, when given, its comparison with a baseline and its judgement by references. */
  public record Case(BenchResult result, GateResult gate, References.Judgement references) {
    public Case(BenchResult result) {
      this(result, null, null);
    }

    public Case(BenchResult result, GateResult gate) {
      this(result, gate, null);
    }

    int tests() {
      return 1 + (gate == null ? 0 : 1) + (references == null ? 0 : 1);
    }

    int failures() {
      return (result.passed() ? 0 : 1)
          + (gate != null && !gate.passed() ? 1 : 0)
          + (references != null && !references.passed() ? 1 : 0);
    }
  }

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  /**
   * Renders the report.
   *
   * @param now used as the timestamp of runs that carry no start time
   */
  public static String render(List<Case> cases, Instant now) {
    StringWriter out = new StringWriter();
    try {
      XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
      x.writeStartDocument("UTF-8", "1.0");
      x.writeCharacters("\n");
      int tests = 0;
      int failures = 0;
      double time = 0;
      for (Case c : cases) {
        tests += c.tests();
        failures += c.failures();
        time += suiteTime(c.result());
      }
      x.writeStartElement("testsuites");
      x.writeAttribute("name", "clusterrun");
      x.writeAttribute("tests", Integer.toString(tests));
      x.writeAttribute("failures", Integer.toString(failures));
      x.writeAttribute("errors", "0");
      x.writeAttribute("time", seconds(time));
      x.writeCharacters("\n");
      int id = 0;
      for (Case c : cases) {
        suite(x, c, id++, now);
      }
      x.writeEndElement();
      x.writeCharacters("\n");
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("cannot write JUnit XML", e);
    }
    return out.toString();
  }

  /** Writes the report to a file (UTF-8), creating parent folders. */
  public static void write(Path file, List<Case> cases, Instant now) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(file, render(cases, now), StandardCharsets.UTF_8);
  }

  private static void suite(XMLStreamWriter x, Case c, int id, Instant now)
      throws XMLStreamException {
    BenchResult r = c.result();
    boolean gateFailed = c.gate() != null && !c.gate().passed();
    int tests = c.tests();
    int failures = c.failures();
    x.writeCharacters("  ");
    x.writeStartElement("testsuite");
    x.writeAttribute("name", "clusterrun.bench." + r.preset());
    x.writeAttribute("package", "clusterrun.bench");
    x.writeAttribute("id", Integer.toString(id));
    x.writeAttribute("timestamp", TIMESTAMP.format(r.startTime() == null ? now : r.startTime()));
    x.writeAttribute("hostname", r.nodes().isEmpty() ? "localhost" : clean(r.nodes().get(0)));
    x.writeAttribute("tests", Integer.toString(tests));
    x.writeAttribute("failures", Integer.toString(failures));
    x.writeAttribute("errors", "0");
    x.writeAttribute("skipped", "0");
    x.writeAttribute("time", seconds(suiteTime(r)));
    x.writeCharacters("\n    ");
    x.writeStartElement("properties");
    for (Map.Entry<String, String> p : properties(r, c.gate(), c.references()).entrySet()) {
      x.writeCharacters("\n      ");
      x.writeEmptyElement("property");
      x.writeAttribute("name", p.getKey());
      x.writeAttribute("value", clean(p.getValue()));
    }
    x.writeCharacters("\n    ");
    x.writeEndElement();

    testcase(x, r, "", seconds(r.timeSeconds() == null ? 0 : r.timeSeconds()));
    if (!r.passed()) {
      failure(
          x,
          r.verdict().name(),
          r.verdict() + ": " + r.reason(),
          String.join("\n", SummaryTable.lines(r)));
    }
    x.writeEndElement();

    if (c.gate() != null) {
      testcase(x, r, " vs baseline", "0");
      if (gateFailed) {
        failure(x, "REGRESSION", c.gate().message(), c.gate().message());
      }
      x.writeEndElement();
    }

    if (c.references() != null) {
      testcase(x, r, " vs references", "0");
      if (!c.references().passed()) {
        failure(x, "OUTSIDE_REFERENCE", c.references().message(), c.references().message());
      }
      x.writeEndElement();
    }

    x.writeCharacters("\n    ");
    x.writeStartElement("system-out");
    x.writeCharacters(clean(String.join("\n", SummaryTable.lines(r))));
    x.writeEndElement();
    x.writeCharacters("\n    ");
    x.writeEmptyElement("system-err");
    x.writeCharacters("\n  ");
    x.writeEndElement();
    x.writeCharacters("\n");
  }

  /** Opens a testcase of the preset, on its own line (the caller closes it). */
  private static void testcase(XMLStreamWriter x, BenchResult r, String suffix, String time)
      throws XMLStreamException {
    x.writeCharacters("\n    ");
    x.writeStartElement("testcase");
    x.writeAttribute("name", r.preset() + suffix);
    x.writeAttribute("classname", "clusterrun.bench." + r.preset());
    x.writeAttribute("time", time);
  }

  /** A testcase's failure, on its own line. */
  private static void failure(XMLStreamWriter x, String type, String message, String text)
      throws XMLStreamException {
    x.writeCharacters("\n      ");
    x.writeStartElement("failure");
    x.writeAttribute("type", type);
    x.writeAttribute("message", clean(message));
    x.writeCharacters(clean(text));
    x.writeEndElement();
    x.writeCharacters("\n    ");
  }

  static Map<String, String> properties(
      BenchResult r, GateResult gate, References.Judgement references) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("preset", r.preset());
    p.put("verdict", r.verdict().name());
    if (r.reason() != null) {
      p.put("reason", r.reason());
    }
    if (r.headline() != null) {
      p.put("headline.name", r.headline().name());
      p.put("headline.value", Double.toString(r.headline().value()));
      p.put("headline.unit", r.headline().unit());
    }
    put(p, "perGpu", r.perGpu());
    put(p, "n", r.n());
    put(p, "nb", r.nb());
    put(p, "p", r.p());
    put(p, "q", r.q());
    put(p, "timeSeconds", r.timeSeconds());
    put(p, "residual", r.residual());
    put(p, "testsPassed", r.testsPassed());
    put(p, "testsFailed", r.testsFailed());
    put(p, "testsSkipped", r.testsSkipped());
    put(p, "ranks", r.ranks());
    put(p, "gpus", r.gpus());
    if (!r.nodes().isEmpty()) {
      p.put("nodes", String.join(",", r.nodes()));
    }
    if (r.image() != null) {
      p.put("image", r.image());
    }
    for (Map.Entry<String, Double> m : r.metrics().entrySet()) {
      p.put("metric." + m.getKey(), Double.toString(m.getValue()));
    }
    if (gate != null) {
      p.put("baseline.passed", Boolean.toString(gate.passed()));
      put(p, "baseline.old", gate.oldValue());
      put(p, "baseline.new", gate.newValue());
      put(p, "baseline.changePercent", gate.changePercent());
    }
    if (references != null) {
      p.put("references.passed", Boolean.toString(references.passed()));
      if (references.entry() != null) {
        p.put("references.entry", references.entry().label());
      }
      for (References.MetricCheck m : references.checks()) {
        p.put(
            "references." + m.metric(),
            (m.value() == null ? "-" : Fmt.num(m.value())) + " in " + m.bound().describe());
      }
    }
    put(p, "cluster", r.cluster());
    put(p, "runId", r.runId());
    put(p, "runDir", r.runDir());
    return p;
  }

  private static void put(Map<String, String> p, String key, Object value) {
    if (value != null) {
      p.put(key, value.toString());
    }
  }

  private static double suiteTime(BenchResult r) {
    if (r.startTime() != null && r.endTime() != null && !r.endTime().isBefore(r.startTime())) {
      return Duration.between(r.startTime(), r.endTime()).toMillis() / 1000.0;
    }
    return r.timeSeconds() == null || r.timeSeconds().isNaN() ? 0 : r.timeSeconds();
  }

  private static String seconds(double s) {
    if (Double.isNaN(s) || Double.isInfinite(s) || s < 0) {
      return "0";
    }
    return new BigDecimal(s).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
  }

  /** Drops characters XML 1.0 cannot carry (control characters from raw program output). */
  static String clean(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints()
        .forEach(
            cp -> {
              boolean ok =
                  cp == 0x9
                      || cp == 0xA
                      || cp == 0xD
                      || (cp >= 0x20 && cp <= 0xD7FF)
                      || (cp >= 0xE000 && cp <= 0xFFFD)
                      || (cp >= 0x10000 && cp <= 0x10FFFF);
              if (ok) {
                b.appendCodePoint(cp);
              }
            });
    return b.toString();
  }
}
