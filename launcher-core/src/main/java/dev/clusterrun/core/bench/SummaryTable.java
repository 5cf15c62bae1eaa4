package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The short human summary of one run, as lines the CLI prints: the verdict first, then N, NB, P×Q,
 * time, the headline (Gflops for HPL), per GPU, the residual verdict, nodes and image. Fields a
 * benchmark does not have (N for STREAM) are left out; fields a run should have but lacks show
 * {@code -}.
 */
public final class SummaryTable {
  private SummaryTable() {}

  public static List<String> lines(BenchResult r) {
    List<String> out = new ArrayList<>();
    out.add(
        r.preset()
            + ": "
            + r.verdict()
            + (r.reason() == null ? "" : ": " + r.reason().replace('\n', ' ')));
    List<String[]> rows = new ArrayList<>();
    if (r.n() != null) {
      rows.add(row("N", Fmt.num(r.n())));
    }
    if (r.nb() != null) {
      rows.add(row("NB", Fmt.num(r.nb())));
    }
    if (r.p() != null && r.q() != null) {
      rows.add(row("P x Q", r.p() + " x " + r.q()));
    }
    rows.add(row("Time", r.timeSeconds() == null ? "-" : Fmt.num(r.timeSeconds()) + " s"));
    Metric h = r.headline();
    if (h == null) {
      rows.add(row("Result", "-"));
    } else {
      String label = h.unit().equalsIgnoreCase("Gflops") ? "Gflops" : h.name();
      String unit = label.equals("Gflops") ? "" : " " + h.unit();
      rows.add(row(label, Fmt.num(h.value()) + unit));
      if (r.perGpu() != null) {
        rows.add(row(label + " per GPU", Fmt.num(r.perGpu()) + unit));
      } else if (h.unit().equalsIgnoreCase("Gflops") && !r.preset().equals("hpcc")) {
        rows.add(row("Gflops per GPU", "-"));
      }
    }
    String residual = residualVerdict(r);
    if (r.residual() != null || residual != null) {
      rows.add(
          row("Residual", Fmt.num(r.residual()) + (residual == null ? "" : " (" + residual + ")")));
    }
    if (r.testsPassed() != null || r.testsFailed() != null) {
      rows.add(
          row(
              "Tests",
              Fmt.num(r.testsPassed())
                  + " passed, "
                  + Fmt.num(r.testsFailed())
                  + " failed, "
                  + Fmt.num(r.testsSkipped())
                  + " skipped"));
    }
    for (String ra : List.of("MPIRandomAccess", "MPIRandomAccess_LCG")) {
      Double errors = r.metrics().get(ra + "_Errors");
      Double size = r.metrics().get(ra + "_N");
      if (errors != null && errors > 0) {
        rows.add(
            row(
                ra,
                Math.round(errors)
                    + " errors in "
                    + (size == null ? "-" : Long.toString(Math.round(size)))
                    + " locations ("
                    + (size == null ? "-" : HpccParser.percentOf(errors, size))
                    + "; hpcc allows 1 %)"));
      }
    }
    rows.add(row("Nodes", nodes(r)));
    if (r.ranks() != null || r.gpus() != null) {
      rows.add(row("Ranks / GPUs", Fmt.num(r.ranks()) + " / " + Fmt.num(r.gpus())));
    }
    rows.add(row("Image", Fmt.or(r.image())));
    int width = rows.stream().mapToInt(x -> x[0].length()).max().orElse(0);
    for (String[] x : rows) {
      out.add("  " + x[0] + " ".repeat(width - x[0].length() + 2) + x[1]);
    }
    return out;
  }

  static String nodes(BenchResult r) {
    if (r.nodes().isEmpty()) {
      return "-";
    }
    List<String> shown = r.nodes().size() > 8 ? r.nodes().subList(0, 8) : r.nodes();
    String more = r.nodes().size() > 8 ? ", … (" + (r.nodes().size() - 8) + " more)" : "";
    return r.nodes().size() + ": " + String.join(", ", shown) + more;
  }

  /** PASSED/FAILED for the residual check when the result says, else null. */
  static String residualVerdict(BenchResult r) {
    long failedRows =
        r.rows().stream().filter(x -> Boolean.FALSE.equals(x.residualPassed())).count();
    if (failedRows > 0) {
      return "FAILED in " + failedRows + " of " + r.rows().size() + " rows";
    }
    if (r.reason() != null && r.reason().contains("residual check FAILED")) {
      return "FAILED";
    }
    if (r.residual() != null) {
      return r.verdict() == Verdict.PASSED ? "PASSED" : null;
    }
    return null;
  }

  private static String[] row(String k, String v) {
    return new String[] {k, v};
  }
}
