package dev.clusterrun.core.mpi;

import dev.clusterrun.core.Argv;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The mpirun command line run inside the head container. Open MPI 4 and 5 accept these words. Made
 * with {@link #of} and the {@code with…} steps; {@link #words} puts a program behind them.
 *
 * @param np total ranks
 * @param hostfile path inside the container
 * @param perNode ranks per node, or null to fill slots in order
 * @param allowRoot add {@code --allow-run-as-root} (remapped root inside the container)
 * @param workdir the ranks' working directory, or null
 * @param mca ordered MCA parameters
 * @param forward {@code -x} entries: NAME or NAME=VALUE
 * @param extra verbatim extra words
 */
public record MpirunArgs(
    int np,
    String hostfile,
    Integer perNode,
    boolean allowRoot,
    String workdir,
    Map<String, String> mca,
    List<String> forward,
    List<String> extra) {

  public MpirunArgs {
    mca = Collections.unmodifiableMap(new LinkedHashMap<>(mca));
    forward = List.copyOf(forward);
    extra = List.copyOf(extra);
  }

  /** {@code np} ranks over the hosts of {@code hostfile}, nothing else yet. */
  public static MpirunArgs of(int np, String hostfile) {
    return new MpirunArgs(np, hostfile, null, false, null, Map.of(), List.of(), List.of());
  }

  /** Ranks per node ({@code --map-by ppr:N:node}), or null to fill slots in order. */
  public MpirunArgs withPerNode(Integer n) {
    return new MpirunArgs(np, hostfile, n, allowRoot, workdir, mca, forward, extra);
  }

  /** Where the ranks start, as whom: {@code --wdir}, {@code --allow-run-as-root}. */
  public MpirunArgs withRanksIn(String dir, boolean asRoot) {
    return new MpirunArgs(np, hostfile, perNode, asRoot, dir, mca, forward, extra);
  }

  /** MCA parameters, {@code -x} variables and verbatim words, in that order. */
  public MpirunArgs withSettings(Map<String, String> m, List<String> x, List<String> words) {
    return new MpirunArgs(np, hostfile, perNode, allowRoot, workdir, m, x, words);
  }

  /** The words, then {@code command} (the program and its arguments). */
  public List<String> words(List<String> command) {
    List<String> w =
        new ArrayList<>(List.of("mpirun", "-np", Integer.toString(np), "--hostfile", hostfile));
    if (perNode != null) {
      w.add("--map-by");
      w.add("ppr:" + perNode + ":node");
    }
    if (allowRoot) {
      w.add("--allow-run-as-root");
    }
    if (workdir != null) {
      w.add("--wdir");
      w.add(workdir);
    }
    mca.forEach(
        (k, v) -> {
          w.add("--mca");
          w.add(k);
          w.add(v);
        });
    Argv.eachWith(w, "-x", forward);
    w.addAll(extra);
    w.addAll(command);
    return w;
  }
}
