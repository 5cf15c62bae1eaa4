package dev.clusterrun.core.launch;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.mpirun.DaemonDetection;
import dev.clusterrun.core.launch.mpirun.EarlyStart;
import dev.clusterrun.core.launch.plan.NetworkPick;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The plan of one run: {@link PlanOptions} built in one place from the run's settings, and the plan
 * made once ({@link Planner#plan}). Before any node is touched the job is only checked ({@link
 * #check}); the plan is made from the facts, at the head's first answer when the run may start
 * early ({@link #early}), else once the checks are in. What the run settles after that is put into
 * the same plan ({@link Planner#settle}), never a new one: the network and mpirun's ssh settled
 * from every node's facts rather than the head's alone, the daemon remembered for the container's
 * contents or found in it. Per-node's rendezvous port, picked at launch, is put into it too ({@link
 * Plan#withMasterPort}). A plan is made again only for another job.
 */
final class RunPlans {
  /** What makes a plan: {@link Planner#plan}, or a test's counting stand-in. */
  @FunctionalInterface
  interface Maker {
    Plan plan(ResolvedJob job, Hostfile hostfile, PlanOptions options, Integer masterPort);
  }

  private record Key(ResolvedJob job, PlanOptions options, Integer masterPort) {}

  private final Maker maker;
  private final Hostfile hostfile;
  private final String runId;
  private final LaunchOptions settings;
  private final Map<Key, Plan> known = new HashMap<>();
  private Key first;
  private int count;

  RunPlans(Hostfile hostfile, String runId, LaunchOptions settings) {
    this(Planner::plan, hostfile, runId, settings);
  }

  RunPlans(Maker maker, Hostfile hostfile, String runId, LaunchOptions settings) {
    this.maker = maker;
    this.hostfile = hostfile;
    this.runId = runId;
    this.settings = settings;
  }

  /** The daemon given ({@code --mpi-daemon orted|prted}), or null when the run finds it. */
  LaunchAgent.Daemon given() {
    return settings.daemon().fixed();
  }

  /**
   * The planner's options for {@code job} in this run: the one place they are built.
   *
   * @param daemon the daemon assumed or found; null: the one given, else orted
   * @param network the network settled from the facts, null before
   * @param sshMasters the head's SSH masters mpirun's ssh rides on, or null
   */
  PlanOptions options(
      ResolvedJob job, LaunchAgent.Daemon daemon, NetworkPick network, String sshMasters) {
    LaunchAgent.Daemon fixed = given();
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      return new PlanOptions(runId, LaunchAgent.Daemon.ORTED, settings.hook(), fixed == null);
    }
    LaunchAgent.Daemon d =
        daemon != null ? daemon : fixed != null ? fixed : LaunchAgent.Daemon.ORTED;
    return new PlanOptions(runId, d, settings.hook(), fixed == null)
        .withNetwork(network)
        .withSshMasters(sshMasters)
        .withIo(settings.io());
  }

  /**
   * The options {@code plan} shows: the network not settled, the daemon orted unless given (with
   * {@code --mpi-daemon auto}, run asks the container).
   */
  PlanOptions shown() {
    LaunchAgent.Daemon fixed = given();
    return new PlanOptions(
            runId, fixed == null ? LaunchAgent.Daemon.ORTED : fixed, settings.hook(), fixed == null)
        .withIo(settings.io());
  }

  /**
   * What the plan would refuse in {@code job}, found before any node is asked and without making
   * the plan ({@link Planner#check}): bad input fails here.
   */
  void check(ResolvedJob job) {
    Planner.check(job, hostfile, options(job, null, null, null));
  }

  /**
   * The plan of {@code job} with {@code options}: made once, then the same plan, with the daemon,
   * the network and mpirun's ssh settled into it when only they differ.
   */
  synchronized Plan plan(ResolvedJob job, PlanOptions options, Integer masterPort) {
    Key k = new Key(job, options, masterPort);
    Plan p = known.get(k);
    if (p != null) {
      return p;
    }
    if (first != null && settles(first, k)) {
      p = Planner.settle(known.get(first), job, options);
    } else {
      p = maker.plan(job, hostfile, options, masterPort);
      count++;
      if (first == null) {
        first = k;
      }
    }
    known.put(k, p);
    return p;
  }

  /**
   * Whether {@code wanted} is {@code made}'s plan settled: the same job and port, and options that
   * differ at most in the daemon, the network and mpirun's ssh.
   */
  private static boolean settles(Key made, Key wanted) {
    return made.job().equals(wanted.job())
        && Objects.equals(made.masterPort(), wanted.masterPort())
        && unsettled(made.options()).equals(unsettled(wanted.options()));
  }

  /** {@code o} without what {@link Planner#settle} settles. */
  private static PlanOptions unsettled(PlanOptions o) {
    return new PlanOptions(
        o.runId(), LaunchAgent.Daemon.ORTED, o.hook(), o.daemonDetected(), null, null, o.io());
  }

  /** How many plans were made so far ({@code summary.json}'s {@code plans}): one in a run. */
  synchronized int count() {
    return count;
  }

  /** The plan for each daemon, the rest of the options as given: what the mpirun launcher asks. */
  Function<LaunchAgent.Daemon, Plan> forDaemon(
      ResolvedJob job, NetworkPick network, String sshMasters) {
    return d -> plan(job, options(job, d, network, sshMasters), null);
  }

  /**
   * The early start's candidate ({@link EarlyStart#consider}) from the head's facts: the plan for
   * the daemon given, else the one remembered for the container's contents ({@link
   * DaemonDetection}), settled into the plan when it is not the one assumed (orted); the daemon
   * null when none is known.
   */
  EarlyStart.Candidate early(
      ResolvedJob job, NetworkPick network, String sshMasters, String dataPath) throws IOException {
    PlanOptions assumed = options(job, null, network, sshMasters);
    Plan plan = plan(job, assumed, null);
    LaunchAgent.Daemon d = given();
    if (d == null) {
      d = DaemonDetection.rememberedDaemon(plan, dataPath);
      if (d != null && d != assumed.daemon()) {
        plan = plan(job, options(job, d, network, sshMasters), null);
      }
    }
    return new EarlyStart.Candidate(
        plan, d, dataPath, JobResolver.NETWORK_AUTO.equals(job.network().value()));
  }
}
