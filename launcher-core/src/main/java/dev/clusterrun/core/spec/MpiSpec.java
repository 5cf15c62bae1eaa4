package dev.clusterrun.core.spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How mpirun is called inside the head container.
 *
 * @param np total ranks; defaults to the hostfile's total slots
 * @param perNode ranks per node ({@code --map-by ppr:N:node}); null to follow slots
 * @param mca MCA parameters ({@code --mca K V}), in order
 * @param env variables forwarded to every rank ({@code -x NAME} or {@code -x NAME=VALUE})
 * @param args extra mpirun arguments, verbatim words
 * @param hostfile path inside the container of the hostfile mpirun reads; defaults to {@code
 *     <workspace mount>/hosts.txt}
 * @param network the network Open MPI keeps to: {@code auto} (the one the hostfile's addresses are
 *     on, found on the nodes), {@code none} (Open MPI's own choice), a CIDR or an interface name
 * @param nodeTimeout how long a node may stay silent while the job runs before clusterrun stops the
 *     job
 */
public record MpiSpec(
    Integer np,
    Integer perNode,
    Map<String, String> mca,
    List<String> env,
    List<String> args,
    String hostfile,
    String network,
    Duration nodeTimeout) {
  public static final MpiSpec EMPTY = new MpiSpec(null, null, null, null, null, null);

  public MpiSpec(
      Integer np,
      Integer perNode,
      Map<String, String> mca,
      List<String> env,
      List<String> args,
      String hostfile) {
    this(np, perNode, mca, env, args, hostfile, null, null);
  }
}
