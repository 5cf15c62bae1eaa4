package dev.clusterrun.core.launch;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The plans of one run: {@link Planner.Options} built in one place from the run's settings, and a
 * plan made once for the same inputs. Before any node is touched the job is only checked ({@link
 * #check}); the plan is made from the facts. The early start's plan (made from the head's facts),
 * the run's plan once the checks are in and the launcher's plan for the daemon it found are one
 * plan whenever their job and options are the same; a plan is made again only when an input
 * differs: the network or mpirun's ssh settled from every node's facts rather than the head's, or a
 * daemon found other than the one assumed. Per-node's rendezvous port, picked at launch, is put
 * into the same plan ({@link Plan#withMasterPort}).
 */
final class RunPlans {
  /** What makes a plan: {@link Planner#plan}, or a test's counting stand-in. */
  @FunctionalInterface
  interface Maker {
    Plan plan(ResolvedJob job, Hostfile hostfile, Planner.Options options, Integer masterPort);
  }

  private record Key(ResolvedJob job, Planner.Options options, Integer masterPort) {}

  private final Maker maker;
  private final Hostfile hostfile;
  private final String runId;
  private final LaunchOptions settings;
  private final Map<Key, Plan> made = new HashMap<>();
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
  Planner.Options options(
      ResolvedJob job, LaunchAgent.Daemon daemon, NetworkPick network, String sshMasters) {
    LaunchAgent.Daemon fixed = given();
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      return new Planner.Options(runId, LaunchAgent.Daemon.ORTED, settings.hook(), fixed == null);
    }
    LaunchAgent.Daemon d =
        daemon != null ? daemon : fixed != null ? fixed : LaunchAgent.Daemon.ORTED;
    return new Planner.Options(runId, d, settings.hook(), fixed == null)
        .withNetwork(network)
        .withSshMasters(sshMasters)
        .withIo(settings.io());
  }

  /**
   * The options {@code plan} shows: the network not settled, the daemon orted unless given (with
   * {@code --mpi-daemon auto}, run asks the container).
   */
  Planner.Options shown() {
    LaunchAgent.Daemon fixed = given();
    return new Planner.Options(
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

  /** The plan of {@code job} with {@code options}: made once, then the same plan. */
  synchronized Plan plan(ResolvedJob job, Planner.Options options, Integer masterPort) {
    Key k = new Key(job, options, masterPort);
    Plan p = made.get(k);
    if (p == null) {
      p = maker.plan(job, hostfile, options, masterPort);
      count++;
      made.put(k, p);
    }
    return p;
  }

  /** How many plans were made so far ({@code summary.json}'s {@code plans}). */
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
   * DaemonDetection}), made again for it when it is not the one assumed (orted); the daemon null
   * when none is known.
   */
  EarlyStart.Candidate early(
      ResolvedJob job, NetworkPick network, String sshMasters, String dataPath) throws IOException {
    Planner.Options assumed = options(job, null, network, sshMasters);
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
