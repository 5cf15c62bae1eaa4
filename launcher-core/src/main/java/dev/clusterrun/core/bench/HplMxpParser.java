package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads NVIDIA HPL-MxP's result blocks ({@code ****** HPL MxP Result ******}): the scaled residual
 * line ending in PASSED/FAILED, {@code N = …, NB = …, NPROW = …, NPCOL = …}, {@code GFLOPS = X, per
 * GPU = Y} (the figure to report) and {@code LU GFLOPS = …}. With several test loops the best
 * GFLOPS is the headline; any FAILED residual fails the run.
 */
public final class HplMxpParser extends TextParser {
  private static final Pattern RESIDUAL =
      Pattern.compile(
          "^\\|\\|Ax-b\\|\\|_oo\\s*/\\s*\\(\\s*EPS.*=\\s*" + N + "\\s*\\.+\\s*(PASSED|FAILED)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern PARAMS =
      Pattern.compile(
          "^N\\s*=\\s*(\\d+)\\s*,\\s*NB\\s*=\\s*(\\d+)\\s*,\\s*NPROW\\s*=\\s*(\\d+)\\s*,"
              + "\\s*NPCOL\\s*=\\s*(\\d+)(?:\\s*,\\s*SLOPPY-TYPE\\s*=\\s*(\\S+))?");
  private static final Pattern GFLOPS =
      Pattern.compile("^GFLOPS\\s*=\\s*" + N + "\\s*,\\s*per GPU\\s*=\\s*" + N);
  private static final Pattern LU_GFLOPS =
      Pattern.compile("^LU GFLOPS\\s*=\\s*" + N + "\\s*,\\s*per GPU\\s*=\\s*" + N);
  private static final Pattern SECONDS =
      Pattern.compile(
          "^(LU|Iterative Solver) seconds:\\s*AVG\\s*=\\s*" + N + ",\\s*MAX\\s*=\\s*" + N);

  private record Block(
      Double residual,
      Boolean passed,
      long n,
      int nb,
      int p,
      int q,
      String sloppy,
      Double gflops,
      Double perGpu,
      Double luGflops,
      Double luPerGpu) {}

  public HplMxpParser() {
    super("hpl-mxp");
  }

  @Override
  BenchResult read(String output) {
    Scan scan = new Scan();
    for (String line : OutputText.lines(output)) {
      scan.line(line);
    }
    scan.end();
    return result(scan);
  }

  /** The blocks of HPL-MxP's output, read line by line. */
  private static final class Scan {
    final List<Block> blocks = new ArrayList<>();
    Double residual;
    Boolean passed;
    long n;
    int nb;
    int p;
    int q;
    String sloppy;
    Double gflops;
    Double perGpu;
    Double luSeconds;
    Double irSeconds;
    final List<String> failures = new ArrayList<>();

    void line(String line) {
      Matcher m;
      if ((m = RESIDUAL.matcher(line)).find()) {
        residual = OutputText.number(m.group(1));
        passed = m.group(2).equalsIgnoreCase("PASSED");
        if (!passed) {
          failures.add("residual check FAILED (scaled residual " + m.group(1) + ")");
        }
      } else if ((m = PARAMS.matcher(line)).find()) {
        n = Long.parseLong(m.group(1));
        nb = Integer.parseInt(m.group(2));
        p = Integer.parseInt(m.group(3));
        q = Integer.parseInt(m.group(4));
        sloppy = m.group(5);
      } else if ((m = LU_GFLOPS.matcher(line)).find()) {
        if (gflops != null) {
          blocks.add(
              new Block(
                  residual,
                  passed,
                  n,
                  nb,
                  p,
                  q,
                  sloppy,
                  gflops,
                  perGpu,
                  OutputText.number(m.group(1)),
                  OutputText.number(m.group(2))));
          residual = null;
          passed = null;
          gflops = null;
          perGpu = null;
        }
      } else if ((m = GFLOPS.matcher(line)).find()) {
        gflops = OutputText.number(m.group(1));
        perGpu = OutputText.number(m.group(2));
      } else if ((m = SECONDS.matcher(line)).find()) {
        if (m.group(1).equals("LU")) {
          luSeconds = OutputText.number(m.group(3));
        } else {
          irSeconds = OutputText.number(m.group(3));
        }
      }
    }

    /** A block whose LU GFLOPS line is missing still counts; the output may end there. */
    void end() {
      if (gflops != null) {
        blocks.add(new Block(residual, passed, n, nb, p, q, sloppy, gflops, perGpu, null, null));
      }
    }
  }

  private static BenchResult result(Scan scan) {
    List<Block> blocks = scan.blocks;
    Double luSeconds = scan.luSeconds;
    Double irSeconds = scan.irSeconds;
    List<String> failures = scan.failures;
    BenchResult.Builder b = BenchResult.builder("hpl-mxp");
    Block best = null;
    for (Block blk : blocks) {
      if (best == null || blk.gflops() > best.gflops()) {
        best = blk;
      }
    }
    if (best != null) {
      b.headline(new Metric("HPL-MxP", best.gflops(), "Gflops"))
          .perGpu(best.perGpu())
          .n(best.n())
          .nb(best.nb())
          .grid(best.p(), best.q())
          .residual(best.residual());
      if (best.luGflops() != null) {
        b.metric("lu_gflops", best.luGflops()).metric("lu_gflops_per_gpu", best.luPerGpu());
      }
      b.metric("results", blocks.size());
    }
    if (luSeconds != null) {
      b.metric("lu_seconds_max", luSeconds);
    }
    if (irSeconds != null) {
      b.metric("iterative_solver_seconds_max", irSeconds);
    }
    if (luSeconds != null || irSeconds != null) {
      b.timeSeconds((luSeconds == null ? 0 : luSeconds) + (irSeconds == null ? 0 : irSeconds));
    }
    if (!failures.isEmpty()) {
      return b.failed(String.join("; ", failures));
    }
    if (best == null) {
      return b.parseError(
          "no \"GFLOPS = …, per GPU = …\" result line; HPL-MxP did not finish or the output"
              + " is cut short");
    }
    for (Block blk : blocks) {
      if (blk.passed() == null) {
        return b.parseError("a result without its residual check line; the output is cut short");
      }
      if (blk.gflops().isNaN() || (blk.residual() != null && blk.residual().isNaN())) {
        return b.failed("HPL-MxP reported NaN");
      }
    }
    return b.verdict(Verdict.PASSED).build();
  }
}
