package dev.clusterrun.core.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests output ({@code all_reduce_perf} and the other collectives): the size table with
 * out-of-place and in-place algbw/busbw and {@code #wrong} columns, {@code # Out of bounds values :
 * 0 OK} and {@code # Avg bus bandwidth : X} (the headline, GB/s). Wrong values, out-of-bounds
 * values or a {@code Test failure} line make the run FAILED.
 */
public final class NcclTestsParser extends TextParser {
  private static final Pattern ROW =
      Pattern.compile(
          "^(\\d+)\\s+(\\d+)\\s+(\\w+)\\s+(\\w+)\\s+(-?\\d+)\\s+"
              + N
              + "\\s+"
              + N
              + "\\s+"
              + N
              + "\\s+(\\S+)\\s+"
              + N
              + "\\s+"
              + N
              + "\\s+"
              + N
              + "\\s+(\\S+)\\s*$");
  private static final Pattern AVG = Pattern.compile("^#\\s*Avg bus bandwidth\\s*:\\s*" + N);
  private static final Pattern OOB =
      Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d+)\\s+(OK|FAILED)");
  private static final Pattern DEVICE = Pattern.compile("^#\\s*Rank\\s+\\d+\\s.*\\bdevice\\b");
  private static final Pattern FAILURE =
      Pattern.compile("\\b(?:Test (?:NCCL |CUDA )?failure|NCCL failure)\\b");

  public NcclTestsParser() {
    super("nccl");
  }

  @Override
  BenchResult read(String output) {
    Double avg = null;
    Integer oob = null;
    boolean oobFailed = false;
    String failure = null;
    long wrong = 0;
    int sizes = 0;
    int devices = 0;
    double peakBus = 0;
    double peakAlg = 0;
    long largest = -1;
    double largestBus = 0;
    for (String line : OutputText.lines(output)) {
      Matcher m;
      if ((m = ROW.matcher(line)).matches()) {
        sizes++;
        long size = Long.parseLong(m.group(1));
        double algOop = OutputText.number(m.group(7));
        double busOop = OutputText.number(m.group(8));
        double algIp = OutputText.number(m.group(11));
        double busIp = OutputText.number(m.group(12));
        wrong += wrongCount(m.group(9)) + wrongCount(m.group(13));
        peakBus = Math.max(peakBus, Math.max(busOop, busIp));
        peakAlg = Math.max(peakAlg, Math.max(algOop, algIp));
        if (size >= largest) {
          largest = size;
          largestBus = Math.max(busOop, busIp);
        }
      } else if ((m = AVG.matcher(line)).find()) {
        avg = OutputText.number(m.group(1));
      } else if ((m = OOB.matcher(line)).find()) {
        oob = Integer.parseInt(m.group(1));
        oobFailed = m.group(2).equals("FAILED");
      } else if (DEVICE.matcher(line).find()) {
        devices++;
      } else if (failure == null && FAILURE.matcher(line).find()) {
        failure = line;
      }
    }
    BenchResult.Builder b = BenchResult.builder("nccl");
    if (avg != null) {
      b.headline(new Metric("busbw", avg, "GB/s"));
    }
    if (sizes > 0) {
      b.metric("sizes", sizes)
          .metric("peak_busbw", peakBus)
          .metric("peak_algbw", peakAlg)
          .metric("largest_size_bytes", largest)
          .metric("largest_size_busbw", largestBus)
          .metric("wrong_values", wrong);
    }
    if (devices > 0) {
      b.metric("devices", devices);
    }
    if (oob != null) {
      b.metric("out_of_bounds", oob);
    }
    if (failure != null) {
      return b.failed(failure);
    }
    if (wrong > 0) {
      return b.failed(wrong + " wrong value(s) in the #wrong columns");
    }
    if (oobFailed || (oob != null && oob > 0)) {
      return b.failed(oob + " out-of-bounds value(s)");
    }
    if (avg == null || sizes == 0) {
      return b.parseError(
          "no size table and \"# Avg bus bandwidth\" line; the test did not finish or the"
              + " output is cut short");
    }
    if (oob == null) {
      return b.parseError("no \"# Out of bounds values\" line; the output is cut short");
    }
    return b.verdict(Verdict.PASSED).build();
  }

  private static long wrongCount(String column) {
    // New nccl-tests print an integer count of wrong elements; "N/A" means the in-place variant
    // did not run. Old ones printed the error magnitude (e.g. "0e+00"), judged by the tool itself.
    if (column.matches("\\d+")) {
      return Long.parseLong(column);
    }
    return 0;
  }
}
