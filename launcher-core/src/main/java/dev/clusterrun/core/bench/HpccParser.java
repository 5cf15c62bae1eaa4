package dev.clusterrun.core.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HPC Challenge's {@code hpccoutf.txt} (Debian's {@code hpcc}): the {@code Begin of Summary
 * section} key=value block and the HPL section embedded in netlib form. The verdict is hpcc's own:
 * each test's passed/failed line (HPL residuals, RandomAccess's error count within 1 % of the
 * table, PTRANS residuals, STREAM validation) and the summary's {@code Success} flag. The headline
 * is HPL in Gflops ({@code HPL_Tflops} × 1000).
 */
public final class HpccParser extends TextParser {
  /** hpcc writes its results to this file in its working directory, not to stdout. */
  public static final String OUTPUT_FILE = "hpccoutf.txt";

  /** Summary keys kept in {@link BenchResult#metrics()} (those present in the output). */
  static final List<String> KEPT =
      List.of(
          "HPL_Tflops",
          "HPL_time",
          "StarDGEMM_Gflops",
          "SingleDGEMM_Gflops",
          "PTRANS_GBs",
          "MPIRandomAccess_GUPs",
          "MPIRandomAccess_N",
          "MPIRandomAccess_Errors",
          "MPIRandomAccess_ErrorsFraction",
          "MPIRandomAccess_LCG_N",
          "MPIRandomAccess_LCG_Errors",
          "MPIRandomAccess_LCG_ErrorsFraction",
          "StarRandomAccess_GUPs",
          "SingleRandomAccess_GUPs",
          "StarSTREAM_Copy",
          "StarSTREAM_Scale",
          "StarSTREAM_Add",
          "StarSTREAM_Triad",
          "SingleSTREAM_Triad",
          "StarFFT_Gflops",
          "SingleFFT_Gflops",
          "MPIFFT_Gflops",
          "MaxPingPongLatency_usec",
          "MinPingPongBandwidth_GBytes",
          "RandomlyOrderedRingLatency_usec",
          "RandomlyOrderedRingBandwidth_GBytes",
          "NaturallyOrderedRingBandwidth_GBytes",
          "CommWorldProcs");

  public HpccParser() {
    super("hpcc");
  }

  @Override
  String emptyOutput() {
    return "the output (" + OUTPUT_FILE + ") is empty";
  }

  @Override
  BenchResult read(String output) {
    List<String> lines = OutputText.lines(output);
    Map<String, String> summary = section(lines, "Summary");
    List<String> hplSection = sectionLines(lines, "HPL");

    BenchResult hpl =
        hplSection == null ? null : new HplParser("hpcc").parse(String.join("\n", hplSection));

    BenchResult.Builder b =
        hpl == null ? BenchResult.builder("hpcc") : hpl.toBuilder().headline(null);
    // hpcc's own HPL figures are the summary's; the embedded rows stay as the detail.
    for (String key : KEPT) {
      Double v = OutputText.number(summary == null ? null : summary.get(key));
      if (v != null) {
        b.metric(key, v);
      }
    }
    if (summary != null) {
      Double tflops = OutputText.number(summary.get("HPL_Tflops"));
      if (tflops != null) {
        // In decimal: 0.00214659 Tflops is 2.14659 Gflops, not 2.1465899999999998.
        double gflops =
            Double.isFinite(tflops)
                ? new BigDecimal(summary.get("HPL_Tflops").strip()).movePointRight(3).doubleValue()
                : tflops;
        b.headline(new Metric("HPL", gflops, "Gflops"));
      }
      Long n = longOf(summary.get("HPL_N"));
      Integer nb = intOf(summary.get("HPL_NB"));
      Integer p = intOf(summary.get("HPL_nprow"));
      Integer q = intOf(summary.get("HPL_npcol"));
      if (n != null) {
        b.n(n);
      }
      if (nb != null) {
        b.nb(nb);
      }
      if (p != null && q != null) {
        b.grid(p, q);
      }
      Double time = OutputText.number(summary.get("HPL_time"));
      if (time != null) {
        b.timeSeconds(time);
      }
      if (hpl != null && n != null && nb != null) {
        for (HplRow r : hpl.rows()) {
          if (r.n() == n && r.nb() == nb && r.residual() != null) {
            b.residual(r.residual());
            break;
          }
        }
      }
    }

    // hpcc's own verdict, section by section: the HPL residual lines, RandomAccess's "Found N
    // errors in M locations (passed|failed)" (it allows errors up to 1 % of the table), PTRANS's
    // failed residual count, STREAM's "Failed Validation", and the summary's Success flag, which
    // hpcc clears when any test failed. Nothing stricter, nothing looser.
    List<String> failures = new ArrayList<>();
    if (hpl != null && hpl.verdict() == Verdict.FAILED) {
      failures.add("HPL: " + hpl.reason());
    }
    failures.addAll(failedTests(lines));
    if (summary != null && "0".equals(summary.get("Success"))) {
      failures.add(
          failures.isEmpty()
              ? "hpcc's summary says Success=0 (a test failed; " + OUTPUT_FILE + " names none)"
              : "hpcc's summary says Success=0");
    }
    if (!failures.isEmpty()) {
      return b.failed(String.join("; ", failures));
    }
    if (summary == null) {
      return b.parseError(
          "no \"Begin of Summary section\" … \"End of Summary section\" in "
              + OUTPUT_FILE
              + "; hpcc did not finish or the file is cut short");
    }
    if (hpl == null) {
      return b.parseError("no \"Begin of HPL section\" … \"End of HPL section\" in " + OUTPUT_FILE);
    }
    if (hpl.verdict() != Verdict.PASSED) {
      return b.verdict(hpl.verdict()).reason("HPL: " + hpl.reason()).build();
    }
    if (!summary.containsKey("HPL_Tflops")) {
      return b.parseError("the summary section has no HPL_Tflops");
    }
    return b.verdict(Verdict.PASSED).build();
  }

  private static final Pattern SECTION_BEGIN = Pattern.compile("^Begin of (\\S+) section\\.$");
  private static final Pattern RANDOM_ACCESS_CHECK =
      Pattern.compile("^Found (\\d+) errors in (\\d+) locations \\((passed|failed)\\)\\.?$");
  private static final Pattern FAILED_RESIDUALS =
      Pattern.compile("^(\\d+) tests? completed and failed residual checks");

  /**
   * The tests hpcc itself says failed, outside HPL (whose rows {@link HplParser} judges): each as
   * {@code SECTION: the line}.
   */
  static List<String> failedTests(List<String> lines) {
    List<String> out = new ArrayList<>();
    String section = "";
    for (String line : lines) {
      Matcher b = SECTION_BEGIN.matcher(line);
      if (b.matches()) {
        section = b.group(1);
        continue;
      }
      if (section.equals("HPL")) {
        continue;
      }
      Matcher ra = RANDOM_ACCESS_CHECK.matcher(line);
      if (ra.matches() && ra.group(3).equals("failed")) {
        out.add(
            section
                + ": "
                + line.substring(0, line.length() - (line.endsWith(".") ? 1 : 0))
                + ": more than hpcc's limit of 1 % of the table ("
                + percentOf(Long.parseLong(ra.group(1)), Long.parseLong(ra.group(2)))
                + ")");
        continue;
      }
      Matcher pt = FAILED_RESIDUALS.matcher(line);
      if (pt.find() && Long.parseLong(pt.group(1)) > 0) {
        out.add(section + ": " + line);
        continue;
      }
      if (line.startsWith("Failed Validation")) {
        out.add(section + ": " + line);
      }
    }
    return out;
  }

  /** {@code errors} as a percentage of {@code size}, e.g. {@code 1.5 %}. */
  static String percentOf(double errors, double size) {
    return size <= 0 ? "-" : Fmt.num(Math.round(errors / size * 1e6) / 1e4) + " %";
  }

  /** The key=value lines of {@code Begin of NAME section.} … {@code End of NAME section.}. */
  static Map<String, String> section(List<String> lines, String name) {
    List<String> body = sectionLines(lines, name);
    if (body == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : body) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    return out;
  }

  /** The lines strictly between the section markers, or null when the section is not complete. */
  static List<String> sectionLines(List<String> lines, String name) {
    String begin = "Begin of " + name + " section.";
    String end = "End of " + name + " section.";
    int from = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).equals(begin)) {
        from = i + 1;
      } else if (from >= 0 && lines.get(i).equals(end)) {
        return lines.subList(from, i);
      }
    }
    return null;
  }

  private static Long longOf(String s) {
    try {
      return s == null ? null : Long.valueOf(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Integer intOf(String s) {
    try {
      return s == null ? null : Integer.valueOf(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
