package dev.clusterrun.core.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HPCG's final verdict, as the reference code writes it to its report ({@code Final
 * Summary::HPCG result is VALID with a GFLOP/s rating of=X}, or {@code …HPCG result is=INVALID.})
 * and as HPCG 3.0's YAML does ({@code HPCG result is VALID with a GFLOP/s rating of: X}); NVIDIA's
 * HPCG prints the same lines to stdout. Only VALID passes.
 */
public final class HpcgParser extends TextParser {
  private static final Pattern VALID =
      Pattern.compile("HPCG result is VALID with a GFLOP/s rating of\\s*[=:]\\s*" + N);
  private static final Pattern INVALID = Pattern.compile("HPCG result is\\s*[=:]?\\s*INVALID");
  private static final Pattern HISTORICAL =
      Pattern.compile("HPCG 2\\.4 rating for historical reasons is\\s*[=:]\\s*" + N);
  private static final Pattern EXEC_TIME =
      Pattern.compile("Results are valid but execution time \\(sec\\) is\\s*[=:]\\s*" + N);
  private static final Pattern TOTAL_TIME =
      Pattern.compile("Benchmark Time Summary::Total\\s*[=:]\\s*" + N);
  private static final Pattern PROCESSES =
      Pattern.compile("Machine Summary::Distributed Processes\\s*[=:]\\s*(\\d+)");
  private static final Pattern GLOBAL_DIM =
      Pattern.compile("Global Problem Dimensions::Global n([xyz])\\s*[=:]\\s*(\\d+)");

  public HpcgParser() {
    super("hpcg");
  }

  @Override
  BenchResult read(String output) {
    BenchResult.Builder b = BenchResult.builder("hpcg");
    Double rating = null;
    boolean invalid = false;
    for (String line : OutputText.lines(output)) {
      Matcher m;
      if ((m = VALID.matcher(line)).find()) {
        rating = OutputText.number(m.group(1));
      } else if (INVALID.matcher(line).find()) {
        invalid = true;
      } else if ((m = HISTORICAL.matcher(line)).find()) {
        b.metric("historical_gflops", OutputText.number(m.group(1)));
      } else if ((m = EXEC_TIME.matcher(line)).find()) {
        b.timeSeconds(OutputText.number(m.group(1)));
      } else if ((m = TOTAL_TIME.matcher(line)).find()) {
        b.metric("total_time_s", OutputText.number(m.group(1)));
      } else if ((m = PROCESSES.matcher(line)).find()) {
        b.metric("processes", Double.parseDouble(m.group(1)));
      } else if ((m = GLOBAL_DIM.matcher(line)).find()) {
        b.metric("global_n" + m.group(1), Double.parseDouble(m.group(2)));
      }
    }
    if (rating != null) {
      b.headline(new Metric("HPCG", rating, "GFLOP/s"));
    }
    if (invalid) {
      return b.failed("HPCG result is INVALID");
    }
    if (rating == null || rating.isNaN()) {
      return b.parseError(
          "no \"HPCG result is VALID with a GFLOP/s rating of\" line; HPCG did not finish or"
              + " the output is cut short");
    }
    return b.verdict(Verdict.PASSED).build();
  }
}
