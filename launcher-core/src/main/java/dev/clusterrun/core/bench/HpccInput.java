package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code hpccinf.txt} HPC Challenge reads from its working directory: one HPL problem (N, NB)
 * on one P×Q grid, in the layout of Debian's example {@code _hpccinf.txt}.
 *
 * @param n HPL problem size (a multiple of NB)
 * @param nb HPL block size
 * @param p process grid rows (P ≤ Q, P×Q = ranks)
 * @param q process grid columns
 */
public record HpccInput(long n, int nb, int p, int q) {
  public static final String FILE_NAME = "hpccinf.txt";

  /** NB that suits CPU BLAS on current x86 and Arm cores. */
  public static final int DEFAULT_NB = 192;

  /** Share of total memory the HPL matrix may take; hpcc's other tests need the rest. */
  public static final double DEFAULT_MEMORY_FRACTION = 0.5;

  private static final Pattern MEM_TOTAL = Pattern.compile("(?m)^MemTotal:\\s+(\\d+)\\s*kB");

  public HpccInput {
    if (n < 1 || nb < 1 || p < 1 || q < 1) {
      throw new IllegalArgumentException("N, NB, P and Q must be positive");
    }
  }

  /**
   * Sizes N so the N×N matrix of doubles takes {@code memoryFraction} of the memory of all nodes,
   * rounded down to a multiple of NB and capped at {@code maxN} (0 = no cap), on the near-square
   * grid of {@link #grid(int)}.
   *
   * @param totalMemoryBytes memory of all nodes together
   * @param ranks MPI ranks (P×Q)
   * @throws BadInputException when the memory cannot hold even one NB×NB block per rank
   */
  public static HpccInput size(
      long totalMemoryBytes, int ranks, double memoryFraction, int nb, long maxN) {
    if (ranks < 1) {
      throw new BadInputException("hpcc", "needs at least 1 rank, got " + ranks);
    }
    if (!(memoryFraction > 0 && memoryFraction <= 1)) {
      throw new BadInputException(
          "hpcc", "memory fraction must be in (0, 1], got " + memoryFraction);
    }
    int[] grid = grid(ranks);
    double elements = memoryFraction * (double) totalMemoryBytes / Double.BYTES;
    long n = (long) Math.floor(Math.sqrt(elements));
    if (maxN > 0) {
      n = Math.min(n, maxN);
    }
    n -= n % nb;
    long least = (long) nb * Math.max(grid[0], grid[1]);
    if (n < least) {
      throw new BadInputException(
          "hpcc",
          "memory ("
              + totalMemoryBytes
              + " bytes) too small for N >= "
              + least
              + " with NB="
              + nb
              + " on a "
              + grid[0]
              + "x"
              + grid[1]
              + " grid");
    }
    return new HpccInput(n, nb, grid[0], grid[1]);
  }

  /**
   * The process grid HPL runs best on: P×Q = ranks with P ≤ Q and P as large as possible, i.e. as
   * square as the rank count allows (12 → 3×4, 8 → 2×4, 7 → 1×7).
   */
  public static int[] grid(int ranks) {
    if (ranks < 1) {
      throw new IllegalArgumentException("ranks must be positive");
    }
    int p = (int) Math.floor(Math.sqrt(ranks));
    while (ranks % p != 0) {
      p--;
    }
    return new int[] {p, ranks / p};
  }

  /** The file's text. */
  public String render() {
    return String.join(
            "\n",
            "HPLinpack benchmark input file",
            "Innovative Computing Laboratory, University of Tennessee (written by clusterrun)",
            "HPL.out      output file name (if any)",
            "8            device out (6=stdout,7=stderr,file)",
            "1            # of problems sizes (N)",
            pad(n) + " Ns",
            "1            # of NBs",
            pad(nb) + " NBs",
            "0            PMAP process mapping (0=Row-,1=Column-major)",
            "1            # of process grids (P x Q)",
            pad(p) + " Ps",
            pad(q) + " Qs",
            "16.0         threshold",
            "1            # of panel fact",
            "2            PFACTs (0=left, 1=Crout, 2=Right)",
            "1            # of recursive stopping criterium",
            "4            NBMINs (>= 1)",
            "1            # of panels in recursion",
            "2            NDIVs",
            "1            # of recursive panel fact.",
            "1            RFACTs (0=left, 1=Crout, 2=Right)",
            "1            # of broadcast",
            "1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)",
            "1            # of lookahead depth",
            "1            DEPTHs (>=0)",
            "2            SWAP (0=bin-exch,1=long,2=mix)",
            "64           swapping threshold",
            "0            L1 in (0=transposed,1=no-transposed) form",
            "0            U  in (0=transposed,1=no-transposed) form",
            "1            Equilibration (0=no,1=yes)",
            "8            memory alignment in double (> 0)",
            "##### This line (no. 32) is ignored (it serves as a separator). ######",
            "0                      \t\tNumber of additional problem sizes for PTRANS",
            "1200 10000 30000        \tvalues of N",
            "0                       \tnumber of additional blocking sizes for PTRANS",
            "40 9 8 13 13 20 16 32 64       \tvalues of NB")
        + "\n";
  }

  private static String pad(long v) {
    String s = Long.toString(v);
    return s.length() >= 12 ? s : s + " ".repeat(12 - s.length());
  }

  /**
   * hpcc's input for a run: {@code --hpcc-n}, or N sized from the head's MemTotal × nodes, capped.
   */
  public static HpccInput forRun(BenchSettings.Hpcc hpcc, int ranks, int nodes) {
    if (hpcc.n() != null) {
      int nb = (int) Math.min(DEFAULT_NB, hpcc.n());
      long n = hpcc.n() - hpcc.n() % nb;
      int[] g = grid(ranks);
      return new HpccInput(n, nb, g[0], g[1]);
    }
    long perNode = memTotalBytes();
    return size(perNode * nodes, ranks, hpcc.memoryFraction(), DEFAULT_NB, hpcc.maxN());
  }

  static long memTotalBytes() {
    String text;
    try {
      text = Files.readString(Path.of("/proc/meminfo"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException(
          "hpcc",
          "cannot read MemTotal from /proc/meminfo (" + e.getMessage() + "); give --hpcc-n");
    }
    Matcher m = MEM_TOTAL.matcher(text);
    if (!m.find()) {
      throw new BadInputException("hpcc", "no MemTotal in /proc/meminfo; give --hpcc-n");
    }
    return Long.parseLong(m.group(1)) * 1024;
  }

  /** {@code N=… NB=… P x Q=… x …}, for people. */
  String describe() {
    return "N=" + n + " NB=" + nb + " P x Q=" + p + " x " + q;
  }
}
