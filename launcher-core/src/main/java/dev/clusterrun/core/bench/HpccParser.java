package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads HPC Challenge's {@code hpccoutf.txt} (Debian's {@code hpcc}): the {@code Begin of Summary
 * section} key=value block and the HPL section embedded in netlib form, whose residual lines decide
 * the verdict together with the summary's {@code Success} flag and the RandomAccess error counts.
 * The headline is HPL in Gflops ({@code HPL_Tflops} × 1000).
 */
public final class HpccParser implements BenchParser {
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
          "MPIRandomAccess_Errors",
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

  @Override
  public BenchResult parse(String output) {
    if (OutputText.isBlank(output)) {
      return BenchResult.parseError("hpcc", "the output (" + OUTPUT_FILE + ") is empty");
    }
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
        b.headline(new Metric("HPL", tflops * 1000.0, "Gflops"));
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

    List<String> failures = new ArrayList<>();
    if (hpl != null && hpl.verdict() == Verdict.FAILED) {
      failures.add("HPL: " + hpl.reason());
    }
    if (summary != null && "0".equals(summary.get("Success"))) {
      failures.add("hpcc's summary says Success=0");
    }
    for (String key : List.of("MPIRandomAccess_Errors", "MPIRandomAccess_LCG_Errors")) {
      Double errors = OutputText.number(summary == null ? null : summary.get(key));
      if (errors != null && errors > 0) {
        failures.add(key + "=" + summary.get(key));
      }
    }
    for (String line : lines) {
      if (line.startsWith("Failed Validation")) {
        failures.add("STREAM: " + line);
        break;
      }
    }
    if (!failures.isEmpty()) {
      return b.verdict(Verdict.FAILED).reason(String.join("; ", failures)).build();
    }
    if (summary == null) {
      return b.verdict(Verdict.PARSE_ERROR)
          .reason(
              "no \"Begin of Summary section\" … \"End of Summary section\" in "
                  + OUTPUT_FILE
                  + "; hpcc did not finish or the file is cut short")
          .build();
    }
    if (hpl == null) {
      return b.verdict(Verdict.PARSE_ERROR)
          .reason("no \"Begin of HPL section\" … \"End of HPL section\" in " + OUTPUT_FILE)
          .build();
    }
    if (hpl.verdict() != Verdict.PASSED) {
      return b.verdict(hpl.verdict()).reason("HPL: " + hpl.reason()).build();
    }
    if (!summary.containsKey("HPL_Tflops")) {
      return b.verdict(Verdict.PARSE_ERROR).reason("the summary section has no HPL_Tflops").build();
    }
    return b.verdict(Verdict.PASSED).build();
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
