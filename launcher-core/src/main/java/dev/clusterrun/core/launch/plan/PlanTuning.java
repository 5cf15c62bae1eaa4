package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.mpi.MpiTuning;
import dev.clusterrun.core.remote.SshMasters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Open MPI's settings a plan adds for the job ({@link Planner}): network, keepalive, ssh. */
final class PlanTuning {
  private PlanTuning() {}

  /**
   * What clusterrun adds to Open MPI's settings: the network ({@link NetworkPick}) and keepalive
   * agreeing with {@code mpi.node-timeout}, for whatever the job does not set itself. Before the
   * run settles the network ({@code plan}: no node asked) only a network given explicitly is added;
   * the settings table names the rest.
   */
  static MpiTuning.Additions of(ResolvedJob job, PlanOptions options) {
    NetworkPick pick = network(job, options);
    Set<String> names = new LinkedHashSet<>(job.env().value().keySet());
    names.addAll(job.envFromHost().value());
    for (String e : job.mpiEnv().value()) {
      int eq = e.indexOf('=');
      names.add(eq < 0 ? e : e.substring(0, eq));
    }
    Map<String, String> jobMca = new LinkedHashMap<>(job.mca().value());
    for (String p : pick.userParams()) {
      jobMca.putIfAbsent(p, "(~/.openmpi/mca-params.conf)");
    }
    return MpiTuning.additions(
        pick.network(),
        options.network() == null ? null : job.nodeTimeout().value(),
        options.sshMasters() == null ? null : SshMasters.mpirunSshArgs(options.sshMasters()),
        options.daemon() == LaunchAgent.Daemon.PRTED,
        new MpiTuning.JobSets(jobMca, names, job.mpiArgs().value()));
  }

  /**
   * mpirun's words before the job's own: its ssh launcher, so that no scheduler's launcher takes
   * the daemons out of the container ({@link MpiTuning#sshLauncher}), then the job's {@code
   * mpi.args}.
   */
  static List<String> mpirunWords(ResolvedJob job, PlanOptions options) {
    List<String> w =
        new ArrayList<>(
            MpiTuning.sshLauncher(
                options.daemon() == LaunchAgent.Daemon.PRTED,
                job.mca().value(),
                job.mpiArgs().value()));
    w.addAll(job.mpiArgs().value());
    return w;
  }

  static NetworkPick network(ResolvedJob job, PlanOptions options) {
    return options.network() != null ? options.network() : NetworkPick.unsettled(job);
  }
}
