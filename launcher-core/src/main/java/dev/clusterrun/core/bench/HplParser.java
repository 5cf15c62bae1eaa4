package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HPL output: netlib HPL ({@code T/V N NB P Q Time Gflops}) and NVIDIA HPL (an extra {@code (
 * per GPU)} column, rows such as {@code WC0}). Keeps every result row; the summary is the row with
 * the best Gflops. A FAILED residual anywhere makes the run FAILED; output without HPL's closing
 * summary ("N tests completed and passed residual checks") is a PARSE_ERROR, because a run cut
 * short proves nothing.
 */
public final class HplParser extends TextParser {
  private static final Pattern ROW =
      Pattern.compile(
          "^(W[A-Z0-9]+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+"
              + N
              + "\\s+"
              + N
              + "(?:\\s*\\(\\s*"
              + N
              + "\\s*\\))?\\s*$");
  private static final Pattern RESIDUAL =
      Pattern.compile(
          "^\\|\\|Ax-b\\|\\|_oo\\s*/\\s*\\(\\s*eps.*=\\s*" + N + "\\s*\\.+\\s*(PASSED|FAILED)\\b.*",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern PASSED = summary("completed and passed residual checks");
  private static final Pattern FAILED = summary("completed and failed residual checks");
  private static final Pattern SKIPPED = summary("skipped because of illegal input values");
  private static final Pattern UNCHECKED = summary("completed without checking");

  /** A line of HPL's closing summary: how many tests {@code what}, the count as group 1. */
  private static Pattern summary(String what) {
    return Pattern.compile("^(\\d+)\\s+tests? " + what);
  }

  public HplParser() {
    this("hpl");
  }

  HplParser(String preset) {
    super(preset);
  }

  @Override
  BenchResult read(String output) {
    Scan scan = new Scan();
    for (String line : OutputText.lines(output)) {
      scan.line(line);
    }
    List<HplRow> rows = scan.rows;
    BenchResult.Builder b = BenchResult.builder(preset()).rows(rows);
    b.counts(scan.passed, scan.failed, scan.skipped);
    HplRow best = null;
    for (HplRow r : rows) {
      if (best == null || r.gflops() > best.gflops() || Double.isNaN(best.gflops())) {
        best = r;
      }
    }
    if (best != null) {
      b.headline(new Metric("HPL", best.gflops(), "Gflops"))
          .perGpu(best.gflopsPerGpu())
          .n(best.n())
          .nb(best.nb())
          .grid(best.p(), best.q())
          .timeSeconds(best.timeSeconds())
          .residual(best.residual());
    }
    return verdict(b, scan);
  }

  /** What the lines of HPL's output said: result rows, residual checks, the summary counts. */
  private static final class Scan {
    final List<HplRow> rows = new ArrayList<>();
    Integer passed;
    Integer failed;
    Integer skipped;
    Integer unchecked;
    final List<String> failures = new ArrayList<>();
    int orphanFailures;

    void line(String line) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        rows.add(
            new HplRow(
                m.group(1),
                Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)),
                OutputText.number(m.group(6)),
                OutputText.number(m.group(7)),
                m.group(8) == null ? null : OutputText.number(m.group(8)),
                null,
                null));
        return;
      }
      m = RESIDUAL.matcher(line);
      if (m.matches()) {
        residual(m.group(1), m.group(2).equalsIgnoreCase("PASSED"));
        return;
      }
      if ((m = PASSED.matcher(line)).find()) {
        passed = Integer.parseInt(m.group(1));
      } else if ((m = FAILED.matcher(line)).find()) {
        failed = Integer.parseInt(m.group(1));
      } else if ((m = SKIPPED.matcher(line)).find()) {
        skipped = Integer.parseInt(m.group(1));
      } else if ((m = UNCHECKED.matcher(line)).find()) {
        unchecked = Integer.parseInt(m.group(1));
      }
    }

    /** A residual check: it belongs to the last row that has none yet. */
    private void residual(String text, boolean ok) {
      Double value = OutputText.number(text);
      int last = rows.size() - 1;
      if (last >= 0 && rows.get(last).residualPassed() == null) {
        HplRow row = rows.get(last).withResidual(value, ok);
        rows.set(last, row);
        if (!ok) {
          failures.add(
              "residual check FAILED for N="
                  + row.n()
                  + " NB="
                  + row.nb()
                  + " P="
                  + row.p()
                  + " Q="
                  + row.q()
                  + " (scaled residual "
                  + text
                  + ")");
        }
      } else if (!ok) {
        orphanFailures++;
        failures.add("residual check FAILED (scaled residual " + text + ")");
      }
    }
  }

  private static BenchResult verdict(BenchResult.Builder b, Scan scan) {
    List<HplRow> rows = scan.rows;
    Integer passed = scan.passed;
    Integer failed = scan.failed;
    Integer skipped = scan.skipped;
    Integer unchecked = scan.unchecked;
    List<String> failures = scan.failures;
    // A FAILED residual is a failure whatever else the output says or lacks.
    if (!failures.isEmpty() || (failed != null && failed > 0)) {
      String reason =
          failures.isEmpty()
              ? failed + " test(s) completed and failed residual checks"
              : String.join("; ", failures);
      return b.failed(reason);
    }
    if (rows.isEmpty()) {
      return b.parseError(
          "no HPL result row (T/V N NB P Q Time Gflops) in the output;"
              + " HPL did not run or the output is cut short");
    }
    if (passed == null) {
      if (unchecked != null) {
        return b.failed(
            unchecked
                + " test(s) completed without residual checks (threshold <= 0 in the dat"
                + " file); an unchecked result is not a pass");
      }
      return b.parseError(
          "the output ends before HPL's summary (\"N tests completed and passed residual"
              + " checks\"); the run was cut short or its output truncated");
    }
    for (HplRow r : rows) {
      if (Double.isNaN(r.gflops()) || (r.residual() != null && Double.isNaN(r.residual()))) {
        return b.failed("HPL reported NaN for N=" + r.n() + " NB=" + r.nb());
      }
    }
    if (passed == 0) {
      String why =
          skipped != null && skipped > 0
              ? "all " + skipped + " test(s) skipped because of illegal input values"
              : "no test passed the residual check";
      return b.failed(why);
    }
    if (scan.orphanFailures == 0 && passed < rows.size()) {
      long withoutCheck = rows.stream().filter(r -> r.residualPassed() == null).count();
      if (withoutCheck > 0) {
        return b.failed(
            rows.size() + " result rows but only " + passed + " passed the residual check");
      }
    }
    return b.verdict(Verdict.PASSED).build();
  }
}
