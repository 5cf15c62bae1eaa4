package dev.clusterrun.core.mpi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What clusterrun adds to Open MPI's settings so that a job keeps to the cluster's network and
 * notices a lost daemon: the network ({@code btl_tcp_if_include}, {@code oob_tcp_if_include}, their
 * PRRTE names for Open MPI 5, {@code NCCL_SOCKET_IFNAME}, {@code UCX_NET_DEVICES}) and TCP
 * keepalive on the out-of-band channel that agrees with {@code --node-timeout}. Whatever the job
 * sets itself, by any name (an MCA parameter, an {@code OMPI_MCA_}/{@code PRTE_MCA_} variable, a
 * word of {@code mpi.args}, an include or an exclude list), is left to the job.
 */
public final class MpiTuning {
  private MpiTuning() {}

  /**
   * The network to keep to.
   *
   * @param include Open MPI's include list: CIDRs or interface names, comma-separated
   * @param ifnames the interfaces it means on the nodes (for NCCL and UCX); empty when unknown
   * @param ucx set {@code UCX_NET_DEVICES} too (no node has an RDMA device, so UCX goes over TCP)
   */
  public record Network(String include, List<String> ifnames, boolean ucx) {
    public Network {
      ifnames = List.copyOf(ifnames);
    }
  }

  /**
   * What the job does not set itself.
   *
   * @param mca {@code --mca K V} for mpirun
   * @param forward {@code -x NAME=VALUE}: variables every rank gets
   * @param env {@code NAME=VALUE} for the head's container (mpirun and, through it, PRRTE's
   *     daemons)
   */
  public record Additions(Map<String, String> mca, List<String> forward, List<String> env) {
    public static final Additions NONE = new Additions(Map.of(), List.of(), List.of());

    public boolean isEmpty() {
      return mca.isEmpty() && forward.isEmpty() && env.isEmpty();
    }
  }

  /** What the job itself sets: MCA parameters, variable names, and mpirun's extra words. */
  public record JobSets(Map<String, String> mca, Collection<String> envNames, List<String> args) {
    boolean any(String... params) {
      for (String p : params) {
        if (mca.containsKey(p)
            || envNames.contains("OMPI_MCA_" + p)
            || envNames.contains("PRTE_MCA_" + p)
            || args.contains(p)) {
          return true;
        }
      }
      return false;
    }

    boolean variable(String name) {
      return envNames.contains(name);
    }
  }

  /** Open MPI 4's resource allocators of schedulers (ORTE's {@code ras} components). */
  static final String ORTE_SCHEDULER_RAS = "^slurm,tm,lsf,gridengine,alps";

  /** PRRTE's (Open MPI 5) resource allocators of schedulers. */
  static final String PRRTE_SCHEDULER_RAS = "^slurm,pbs,tm,lsf,gridengine,alps,flux";

  /**
   * mpirun's words that keep it off every scheduler, whatever crosses into the container: with
   * {@code SLURM_JOBID} and the like in its environment, Open MPI's Slurm launcher (priority 75
   * against ssh's 10) would start the daemons with {@code srun}, outside the job's containers, and
   * its Slurm allocator would look for the allocation's variables and stop mpirun when one is
   * missing. The nodes are the run's hostfile. Open MPI 4: {@code --mca plm rsh --mca ras
   * ^slurm,…}; PRRTE (Open MPI 5): {@code --prtemca plm ssh --prtemca ras ^slurm,…}. A word of
   * mpirun's command line wins over every {@code OMPI_MCA_}/{@code PRTE_MCA_} variable. The job's
   * own MCA settings or mpirun words that name {@code plm} or {@code ras} keep that one.
   *
   * @param prrte the container's Open MPI is 5 (PRRTE), else 4 (ORTE)
   */
  public static List<String> sshLauncher(
      boolean prrte, Map<String, String> jobMca, List<String> args) {
    List<String> w = new ArrayList<>();
    String flag = prrte ? "--prtemca" : "--mca";
    if (!jobMca.containsKey("plm") && !args.contains("plm")) {
      w.addAll(List.of(flag, "plm", prrte ? "ssh" : "rsh"));
    }
    if (!jobMca.containsKey("ras") && !args.contains("ras")) {
      w.addAll(List.of(flag, "ras", prrte ? PRRTE_SCHEDULER_RAS : ORTE_SCHEDULER_RAS));
    }
    return w;
  }

  /**
   * The additions for a job.
   *
   * @param network the network, or null to leave interface selection to Open MPI
   * @param nodeTimeout how long a node may stay silent, or null for Open MPI's own keepalive
   * @param sshArgs options for the {@code ssh} that starts the daemons ({@code plm_rsh_args},
   *     PRRTE's {@code plm_ssh_args}), or null for none
   * @param prrte the container's Open MPI is 5 (PRRTE's daemon {@code prted}), else 4 (ORTE)
   */
  public static Additions additions(
      Network network, Duration nodeTimeout, String sshArgs, boolean prrte, JobSets job) {
    Map<String, String> mca = new LinkedHashMap<>();
    List<String> forward = new ArrayList<>();
    List<String> env = new ArrayList<>();
    if (sshArgs != null
        && !job.any(
            "plm_rsh_args",
            "plm_ssh_args",
            "plm_rsh_agent",
            "plm_ssh_agent",
            "orte_rsh_agent",
            "pls_rsh_agent")) {
      // A variable, not --mca: an enroot hook that sets its own (it writes the container's
      // environment after enroot start's --env) and the job's --mca both win over it.
      env.add((prrte ? "PRTE_MCA_plm_ssh_args=" : "OMPI_MCA_plm_rsh_args=") + sshArgs);
    }
    if (network != null) {
      String inc = network.include();
      if (!job.any("btl_tcp_if_include", "btl_tcp_if_exclude")) {
        mca.put("btl_tcp_if_include", inc);
      }
      if (!job.any(
          "oob_tcp_if_include", "oob_tcp_if_exclude", "prte_if_include", "prte_if_exclude")) {
        if (prrte) {
          // PRRTE reads its own parameters from PRTE_MCA_* (prterun passes them on to prted).
          env.add("PRTE_MCA_oob_tcp_if_include=" + inc);
          env.add("PRTE_MCA_prte_if_include=" + inc);
        } else {
          mca.put("oob_tcp_if_include", inc);
        }
      }
      if (!network.ifnames().isEmpty()) {
        String names = String.join(",", network.ifnames());
        if (!job.variable("NCCL_SOCKET_IFNAME")) {
          // '=': exact names, not prefixes (eth1 must not match eth10).
          forward.add("NCCL_SOCKET_IFNAME==" + names);
        }
        if (network.ucx() && !job.variable("UCX_NET_DEVICES")) {
          forward.add("UCX_NET_DEVICES=" + names);
        }
      }
    }
    if (nodeTimeout != null) {
      Keepalive k = Keepalive.after(nodeTimeout);
      String[][] names = {
        {"time", Long.toString(k.time())},
        {"intvl", Long.toString(k.interval())},
        {"probes", Long.toString(k.probes())}
      };
      for (String[] n : names) {
        String ompi4 = "oob_tcp_keepalive_" + n[0];
        String prte4 = "prte_keepalive_" + n[0];
        if (job.any(ompi4, prte4)) {
          continue;
        }
        if (prrte) {
          // PRRTE 3 keeps Open MPI 4's names; PRRTE 4 renamed them prte_keepalive_*.
          env.add("PRTE_MCA_" + ompi4 + "=" + n[1]);
          env.add("PRTE_MCA_" + prte4 + "=" + n[1]);
        } else {
          mca.put(ompi4, n[1]);
        }
      }
    }
    return mca.isEmpty() && forward.isEmpty() && env.isEmpty()
        ? Additions.NONE
        : new Additions(mca, forward, env);
  }

  /**
   * TCP keepalive in whole seconds: the first probe after {@code time} of silence, then one every
   * {@code interval}, the connection dropped after {@code probes} unanswered ones.
   */
  public record Keepalive(long time, long interval, long probes) {
    /**
     * Keepalive that gives up a little after clusterrun's own watch ({@link #after}): half as long
     * again as the node timeout, at least 5 s more. clusterrun, which names the lost node, acts
     * first; Open MPI's daemons still notice a lost peer on their own if clusterrun cannot.
     */
    public static Keepalive after(Duration nodeTimeout) {
      long s = Math.max(1, nodeTimeout.toSeconds());
      return within(Duration.ofSeconds(Math.max(s + 5, s * 3 / 2)));
    }

    /** Keepalive that gives up within {@code timeout} (at least 3 s). */
    public static Keepalive within(Duration timeout) {
      long t = Math.max(3, timeout.toSeconds());
      long time = Math.max(1, t / 3);
      long interval = Math.max(1, (t - time) / 4);
      long probes = Math.max(1, (t - time) / interval);
      return new Keepalive(time, interval, probes);
    }

    public long total() {
      return time + interval * probes;
    }
  }
}
