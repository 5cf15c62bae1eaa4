package dev.clusterrun.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.mpirun.DaemonDetection;
import dev.clusterrun.core.launch.mpirun.EarlyStart;
import dev.clusterrun.core.launch.mpirun.MpirunLauncher;
import dev.clusterrun.core.launch.plan.NetworkPick;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often one run makes its plan ({@link Planner#plan}), counted through the run's own {@link
 * RunPlans} in the order {@link LaunchFlow#run} and {@link RunAttempt} ask it: checked (not
 * planned) before any node, then planned from the head's first answer (the early start), once the
 * checks are in, and for the daemon the launcher finds: once, unless an input differs.
 */
class RunPlansTest {
  @TempDir Path ws;

  private final AtomicInteger made = new AtomicInteger();
  private ResolvedJob job;
  private Path data;

  @BeforeEach
  void job() throws Exception {
    data = Files.createDirectories(ws.resolve("data"));
    // A named container that exists, used as it is: a job the early start can begin.
    Files.createDirectories(data.resolve("mine"));
    job = resolve(spec().build());
  }

  /** The job: its named container {@code mine} in the data path, {@code hostname} its command. */
  private JobSpecBuilder spec() {
    return JobSpecBuilder.hostnameJob(ws.toString()).containerName("mine");
  }

  private static ResolvedJob resolve(JobSpec f) {
    return new JobResolver()
        .layer(f, Source.FILE, "j.yaml")
        .resolve(PlannerTest.TWO_BY_EIGHT, "/home/a");
  }

  private RunPlans plans(LaunchOptions.Daemon daemon) {
    return new RunPlans(
        (j, h, o, port) -> {
          made.incrementAndGet();
          return Planner.plan(j, h, o, port);
        },
        PlannerTest.TWO_BY_EIGHT,
        "RUN",
        new LaunchOptions(false, CanaryMode.OFF, daemon, true));
  }

  /** The launcher the run makes once the checks are in ({@link RunAttempt#prepare}). */
  private MpirunLauncher launcher(RunPlans plans, NetworkPick network, EarlyStart.Candidate c) {
    return new MpirunLauncher(
        MpirunLauncher.Config.of(
                plans.forDaemon(job, network, "/masters"), plans.given(), CanaryMode.OFF)
            .assuming(c.daemon() != null ? c.daemon() : LaunchAgent.Daemon.ORTED));
  }

  @Test
  void aRunWhoseEarlyStartFitsIsPlannedOnceFromTheFacts() throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    // Before any node: bad input fails here, and no plan is made.
    plans.check(job);
    assertThat(made).hasValue(0);
    // The head's first answer: its facts settle the network, the daemon is remembered as orted.
    NetworkPick network = NetworkPick.settle(job, null, null);
    Plan same = Planner.plan(job, PlannerTest.TWO_BY_EIGHT, plans.options(job, null, null, null));
    String key = DaemonDetection.contentKey(same, ws, data.toString());
    Path memo = DaemonDetection.memo(ws, key);
    Files.createDirectories(memo.getParent());
    Files.writeString(memo, "4.1.4\n" + key + "\n");
    EarlyStart.Candidate c = plans.early(job, network, "/masters", data.toString());
    assertThat(c.daemon()).isEqualTo(LaunchAgent.Daemon.ORTED);
    assertThat(EarlyStart.startsAsIs(c.plan(), data.toString())).isTrue();
    assertThat(made).hasValue(1);
    // The checks settle the same network and masters: the launcher starts from the early plan and
    // finds the daemon it assumed.
    MpirunLauncher mpirun = launcher(plans, network, c);
    assertThat(mpirun.firstPlan()).isSameAs(c.plan());
    assertThat(plans.forDaemon(job, network, "/masters").apply(LaunchAgent.Daemon.ORTED))
        .isSameAs(c.plan());
    assertThat(made).as("plans made in one run").hasValue(1);
  }

  @Test
  void aDaemonFoundOtherThanTheOneAssumedIsTheOneMorePlan() throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.check(job);
    NetworkPick network = NetworkPick.settle(job, null, null);
    // Nothing remembered: the early start does not begin; the run assumes orted.
    EarlyStart.Candidate c = plans.early(job, network, "/masters", data.toString());
    assertThat(c.daemon()).isNull();
    MpirunLauncher mpirun = launcher(plans, network, c);
    assertThat(mpirun.firstPlan()).isSameAs(c.plan());
    assertThat(made).hasValue(1);
    // The container has Open MPI 5: one more plan, for prted.
    Plan prted = plans.forDaemon(job, network, "/masters").apply(LaunchAgent.Daemon.PRTED);
    assertThat(prted.daemon()).isEqualTo("prted");
    assertThat(made).hasValue(2);
  }

  @Test
  void aDaemonGivenIsPlannedOnceFromTheFactsWithoutAnEarlyStart() {
    RunPlans plans = plans(LaunchOptions.Daemon.PRTED);
    plans.check(job);
    // Planned once the checks are in, and the launcher, given its daemon, asks for no other.
    NetworkPick network = NetworkPick.settle(job, null, null);
    MpirunLauncher mpirun =
        new MpirunLauncher(
            MpirunLauncher.Config.of(
                plans.forDaemon(job, network, null), plans.given(), CanaryMode.OFF));
    Plan first = mpirun.firstPlan();
    assertThat(first.daemon()).isEqualTo("prted");
    assertThat(plans.forDaemon(job, network, null).apply(LaunchAgent.Daemon.PRTED)).isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void aPerNodeRunIsPlannedOnceAndItsPortPutIntoThatPlan() {
    ResolvedJob perNode =
        resolve(spec().launcher(dev.clusterrun.core.spec.LauncherKind.PER_NODE).build());
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.check(perNode);
    Plan first = plans.plan(perNode, plans.options(perNode, null, null, null), null);
    // The port picked on the first node at launch goes into the same plan, not a new one.
    Plan withPort = first.withMasterPort(29517);
    assertThat(made).hasValue(1);
    assertThat(withPort.perNode())
        .isEqualTo(
            Planner.plan(
                    perNode,
                    PlannerTest.TWO_BY_EIGHT,
                    plans.options(perNode, null, null, null),
                    29517)
                .perNode());
  }
}
