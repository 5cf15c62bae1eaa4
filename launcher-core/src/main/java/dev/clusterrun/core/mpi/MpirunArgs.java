package dev.clusterrun.core.mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The mpirun command line run inside the head container. Open MPI 4 and 5 accept these words. */
public final class MpirunArgs {
  private MpirunArgs() {}

  /**
   * @param np total ranks
   * @param hostfile path inside the container
   * @param perNode ranks per node, or null to fill slots in order
   * @param allowRoot add {@code --allow-run-as-root} (remapped root inside the container)
   * @param workdir the ranks' working directory, or null
   * @param mca ordered MCA parameters
   * @param forward {@code -x} entries: NAME or NAME=VALUE
   * @param extra verbatim extra words
   * @param command the program and its arguments
   */
  public static List<String> build(
      int np,
      String hostfile,
      Integer perNode,
      boolean allowRoot,
      String workdir,
      Map<String, String> mca,
      List<String> forward,
      List<String> extra,
      List<String> command) {
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
    for (String x : forward) {
      w.add("-x");
      w.add(x);
    }
    w.addAll(extra);
    w.addAll(command);
    return w;
  }
}
