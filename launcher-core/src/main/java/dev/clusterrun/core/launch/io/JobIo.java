package dev.clusterrun.core.launch.io;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.LaunchAgent;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the job's standard input goes and how its ranks' output comes back ({@code --stdin}, {@code
 * --label}, {@code --output-per-rank}).
 *
 * <p>Input: clusterrun's own standard input (a file, a pipe or a terminal) is copied into the job's
 * launch once the job's command runs, and closed at its end; mpirun gives it to the ranks {@code
 * --stdin} names, as mpirun's own {@code --stdin} (srun's {@code --input}) does: rank 0 by default,
 * {@code all}, one rank, or {@code none}.
 *
 * <p>Output: Open MPI forwards each rank's output in chunks of up to 4 KiB, cut anywhere, and
 * writes chunks of different ranks one after the other on mpirun's standard output, so one line can
 * hold the end of one rank's line and the start of another's. Its own remedy, {@code --tag-output},
 * tags each chunk (not each line) and, in Open MPI 4, cuts a tagged chunk at 8 KiB: ranks printing
 * short lines lose output. clusterrun instead has Open MPI write each rank's output into its own
 * files ({@code --output-filename DIR:nojobid} in Open MPI 4, {@code --output dir=DIR,:raw} in Open
 * MPI 5, in the run directory on the shared filesystem, {@link #RANKS_DIR}): one writer per file,
 * nothing mixed. With {@code --label} mpirun does not copy them to its own output ({@code nocopy});
 * clusterrun follows the files ({@link RankOutput}) and prints whole lines, each prefixed with its
 * node and rank.
 *
 * @param stdin the ranks that get the input: {@code 0} (mpirun's default), another rank, {@code
 *     all} or {@code none}
 * @param label each line of the ranks' output whole, prefixed with {@code NODE:RANK: }
 * @param perRank keep each rank's output in its own files of the run directory
 */
public record JobIo(String stdin, boolean label, boolean perRank) {
  /** mpirun's own behaviour: rank 0 gets the input, output as Open MPI forwards it. */
  public static final JobIo DEFAULT = new JobIo("0", false, false);

  /** Where the ranks' own files go in the run directory. */
  public static final String RANKS_DIR = "ranks";

  /** Where they go with {@code --label} alone: removed after the run (stdout.log holds them). */
  public static final String LABEL_DIR = ".ranks";

  public JobIo {
    stdin = stdin == null ? "0" : stdin;
  }

  /**
   * {@code --stdin}'s value: {@code none}, {@code all} or a rank (a number from 0).
   *
   * @throws BadInputException naming {@code --stdin} otherwise
   */
  public static String parseStdin(String s) {
    if (s == null) {
      return "0";
    }
    if (s.equals("none") || s.equals("all") || s.matches("0|[1-9][0-9]{0,8}")) {
      return s;
    }
    throw new BadInputException(
        "--stdin", "expected none, all or a rank (0, 1, ...), got '" + s + "'");
  }

  /** The job's own mpirun arguments that choose where the ranks' output goes. */
  private static final List<String> OUTPUT_OPTIONS =
      List.of(
          "--output-filename",
          "-output-filename",
          "--output",
          "--tag-output",
          "-tag-output",
          "--timestamp-output",
          "-timestamp-output",
          "--xml",
          "-xml");

  /**
   * Refuses {@code io} when the job's own mpirun arguments already decide the same thing, or a rank
   * beyond {@code np} gets the input.
   *
   * @throws BadInputException naming the flag
   */
  public static void checkAgainst(JobIo io, List<String> mpiArgs, int np) {
    for (String a : mpiArgs) {
      String word = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (!io.stdin.equals("0") && (word.equals("--stdin") || word.equals("-stdin"))) {
        throw new BadInputException(
            "--stdin", "the job's own mpirun arguments (mpi.args) give " + a + " already");
      }
      if (io.rankFiles() && OUTPUT_OPTIONS.contains(word)) {
        throw new BadInputException(
            io.label ? "--label" : "--output-per-rank",
            "the job's own mpirun arguments (mpi.args) choose the output with " + a + " already");
      }
    }
    if (io.stdin.matches("[0-9]+") && Long.parseLong(io.stdin) >= np) {
      throw new BadInputException(
          "--stdin=" + io.stdin, "the job has " + np + (np == 1 ? " rank" : " ranks"));
    }
  }

  /** Whether any rank gets clusterrun's standard input. */
  public boolean forwardsInput() {
    return !stdin.equals("none");
  }

  /** Whether Open MPI writes each rank's output into files of the run directory. */
  public boolean rankFiles() {
    return label || perRank;
  }

  /** The directory of the ranks' files in the run directory ({@link #RANKS_DIR} when kept). */
  public String filesDir() {
    return perRank ? RANKS_DIR : LABEL_DIR;
  }

  /**
   * The mpirun words for this input and output, in {@code daemon}'s Open MPI's spelling.
   *
   * @param runDirInContainer the run directory as the ranks see it (through the workspace mount)
   */
  public List<String> mpirunWords(LaunchAgent.Daemon daemon, String runDirInContainer) {
    List<String> w = new ArrayList<>();
    if (!stdin.equals("0")) {
      w.add("--stdin");
      w.add(stdin);
    }
    if (rankFiles()) {
      String dir = runDirInContainer + "/" + filesDir();
      if (daemon == LaunchAgent.Daemon.PRTED) {
        // PRRTE: DIR/NSPACE/rank.N/std{out,err}; qualifiers after a colon. Raw: OpenPMIx as
        // released keeps a process's unfinished line and prepends it to the next chunk of any
        // process on the same stream, another rank's file included; raw keeps none.
        w.add("--output");
        w.add("dir=" + dir + (label ? ":nocopy" : "") + ",:raw");
      } else {
        // ORTE: DIR/rank.N/std{out,err} without the job id level.
        w.add("--output-filename");
        w.add(dir + ":nojobid" + (label ? ",nocopy" : ""));
      }
    }
    return w;
  }
}
