package dev.clusterrun.core.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads STREAM's table ({@code Copy: / Scale: / Add: / Triad:} with McCalpin's {@code Best Rate
 * MB/s} column, NVIDIA-STREAM's {@code Rate (MB/s)} or HPCC's {@code Rate (GB/s)}) and its
 * validation line. The headline is Triad. Reference STREAM passes only on {@code Solution
 * Validates}; NVIDIA-STREAM prints no validation line, so there a complete table passes. With
 * several tables (one per GPU) the headline is the lowest Triad: the weakest device.
 */
public final class StreamParser extends TextParser {
  private static final Pattern HEADER =
      Pattern.compile("^Function\\s+(?:Best\\s+)?Rate\\s*\\(?\\s*(MB/s|GB/s)\\s*\\)?.*");
  private static final Pattern ROW =
      Pattern.compile("^(Copy|Scale|Add|Triad):\\s+" + N + "(?:\\s+.*)?$");

  public StreamParser() {
    super("stream");
  }

  @Override
  BenchResult read(String output) {
    String unit = "MB/s";
    boolean validates = false;
    String failedValidation = null;
    boolean nvidia = false;
    Map<String, Double> min = new LinkedHashMap<>();
    Map<String, Double> max = new LinkedHashMap<>();
    int tables = 0;
    for (String line : OutputText.lines(output)) {
      Matcher m;
      if ((m = HEADER.matcher(line)).matches()) {
        unit = m.group(1);
        tables++;
      } else if ((m = ROW.matcher(line)).matches() && tables > 0) {
        double v = OutputText.number(m.group(2));
        min.merge(m.group(1), v, Math::min);
        max.merge(m.group(1), v, Math::max);
      } else if (line.startsWith("Solution Validates")) {
        validates = true;
      } else if (line.startsWith("Failed Validation") && failedValidation == null) {
        failedValidation = line;
      } else if (line.contains("NVIDIA-STREAM")) {
        nvidia = true;
      }
    }
    BenchResult.Builder b = BenchResult.builder("stream");
    for (Map.Entry<String, Double> e : min.entrySet()) {
      b.metric(e.getKey(), e.getValue());
      if (tables > 1) {
        b.metric(e.getKey() + ".max", max.get(e.getKey()));
      }
    }
    if (tables > 1) {
      b.metric("tables", tables);
    }
    Double triad = min.get("Triad");
    if (triad != null) {
      b.headline(new Metric("Triad", triad, unit));
    }
    if (failedValidation != null) {
      return b.failed(failedValidation);
    }
    if (triad == null || min.size() < 4) {
      return b.parseError(
          "no complete Copy/Scale/Add/Triad table; STREAM did not finish or the output is"
              + " cut short");
    }
    if (!validates && !nvidia) {
      return b.parseError(
          "no \"Solution Validates\" line after the table; the output is cut short");
    }
    return b.verdict(Verdict.PASSED).build();
  }
}
