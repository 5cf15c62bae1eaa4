package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one rule for rank counts, whatever sets them ({@code --np}, {@code mpi.np}, {@code
 * mpi.per-node}, the hostfile's slots), so that mpirun never refuses a job clusterrun accepted:
 *
 * <ul>
 *   <li>{@code per-node} is at most the slots of every host ({@code --map-by ppr:N:node} places N
 *       ranks on each);
 *   <li>with {@code per-node}, {@code np} is at most {@code per-node × nodes};
 *   <li>without it, {@code np} is at most the hostfile's total slots;
 *   <li>unless the job asks for oversubscription explicitly ({@code --oversubscribe} or {@code
 *       --map-by …:OVERSUBSCRIBE} in {@code mpi.args}, or {@code rmaps_base_oversubscribe} in
 *       {@code mpi.mca}): then slots are no limit, only {@code max_slots=} where a host gives it.
 * </ul>
 */
public final class Ranks {
  private Ranks() {}

  /**
   * @throws BadInputException naming the setting (flag, variable or file and key) that breaks the
   *     rule
   */
  public static void check(ResolvedJob job, Hostfile hostfile) {
    int np = job.np().value();
    if (np < 1) {
      throw new BadInputException(JobResolver.subject(job.np(), "mpi.np"), "must be at least 1");
    }
    boolean over = oversubscribes(job.mpiArgs().value(), job.mca().value());
    Integer perNode = job.perNode().value();
    int nodes = hostfile.hosts().size();
    if (perNode != null) {
      for (Host h : hostfile.hosts()) {
        long cap = over ? (h.maxSlots() > 0 ? h.maxSlots() : Long.MAX_VALUE) : h.slots();
        if (perNode > cap) {
          throw new BadInputException(
              JobResolver.subject(job.perNode(), "mpi.per-node"),
              perNode
                  + " ranks per node, but "
                  + h.name()
                  + " has "
                  + (over ? "max_slots=" : "slots=")
                  + cap
                  + " ("
                  + hostfile.source()
                  + ":"
                  + h.line()
                  + "); lower per-node or raise "
                  + (over ? "max_slots=" : "slots= (or allow oversubscription: " + HOW + ")"));
        }
      }
      long placed = (long) perNode * nodes;
      if (np > placed) {
        throw new BadInputException(
            JobResolver.subject(job.np(), "mpi.np"),
            np
                + " ranks, but "
                + perNode
                + " per node on "
                + nodes
                + (nodes == 1 ? " node" : " nodes")
                + " place at most "
                + placed
                + "; lower np or raise mpi.per-node");
      }
      return;
    }
    long cap = hostfile.totalSlots();
    String what = "slots";
    if (over) {
      cap = 0;
      for (Host h : hostfile.hosts()) {
        if (h.maxSlots() <= 0) {
          return;
        }
        cap += h.maxSlots();
      }
      what = "max_slots";
    }
    if (np > cap) {
      throw new BadInputException(
          JobResolver.subject(job.np(), "mpi.np"),
          np
              + " ranks but "
              + hostfile.source()
              + " has only "
              + cap
              + " "
              + what
              + "; raise "
              + what
              + "= in the hostfile or lower np"
              + (over ? "" : " (or allow oversubscription: " + HOW + ")"));
    }
  }

  private static final String HOW = "--oversubscribe in mpi.args";

  /** Whether the job asks mpirun to place more ranks than slots. */
  static boolean oversubscribes(List<String> args, Map<String, String> mca) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--oversubscribe") || a.equals("-oversubscribe")) {
        return true;
      }
      String mapBy = null;
      if ((a.equals("--map-by") || a.equals("-map-by")) && i + 1 < args.size()) {
        mapBy = args.get(i + 1);
      } else if (a.startsWith("--map-by=")) {
        mapBy = a.substring("--map-by=".length());
      }
      if (mapBy != null && mapBy.toUpperCase(Locale.ROOT).contains(":OVERSUBSCRIBE")) {
        return true;
      }
    }
    String v = mca.get("rmaps_base_oversubscribe");
    return v != null && List.of("1", "true", "yes", "on").contains(v.toLowerCase(Locale.ROOT));
  }
}
