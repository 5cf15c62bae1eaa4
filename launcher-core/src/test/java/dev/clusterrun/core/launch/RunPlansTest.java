package dev.clusterrun.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.io.JobIo;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.mpirun.DaemonDetection;
import dev.clusterrun.core.launch.mpirun.EarlyStart;
import dev.clusterrun.core.launch.mpirun.MpirunLauncher;
import dev.clusterrun.core.launch.plan.NetworkPick;
import dev.clusterrun.core.launch.plan.NetworkPickTest;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.MpiSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often one run makes its plan ({@link Planner#plan}), counted through the run's own {@link
 * RunPlans} in the order {@link LaunchFlow#run} and {@link RunAttempt} ask it: checked (not
 * planned) before any node, then planned from the head's first answer (the early start), asked
 * again once the checks are in and for the daemon the launcher finds. Once: what differs after the
 * head's answer (the network and mpirun's ssh from every node's facts, the daemon) is settled into
 * that plan ({@link Planner#settle}), which is then what {@link Planner#plan} makes from the
 * settled inputs, word for word.
 */
class RunPlansTest {
  @TempDir Path ws;

  private final AtomicInteger made = new AtomicInteger();
  private ResolvedJob job;
  private Path data;

  /** The head, gpu01, reached gpu02 on 10.0.0.0/24 (ens5): every node's facts choose it. */
  private static final Map<String, Facts> EVERY_NODE = NetworkPickTest.cluster("0", null);

  /** The head's own facts alone, as at its first answer: they choose no network. */
  private static final Map<String, Facts> HEAD_ONLY = Map.of("gpu01", EVERY_NODE.get("gpu01"));

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
  private MpirunLauncher launcher(
      RunPlans plans, NetworkPick network, String ssh, EarlyStart.Candidate c) {
    return new MpirunLauncher(
        MpirunLauncher.Config.of(plans.forDaemon(job, network, ssh), plans.given(), CanaryMode.OFF)
            .assuming(c.daemon() != null ? c.daemon() : LaunchAgent.Daemon.ORTED));
  }

  /** Remembers Open MPI {@code version} for the contents of container {@code mine}. */
  private void remember(RunPlans plans, String version) throws Exception {
    Plan p = Planner.plan(job, PlannerTest.TWO_BY_EIGHT, plans.options(job, null, null, null));
    String key = DaemonDetection.contentKey(p, ws, data.toString());
    Path memo = DaemonDetection.memo(ws, key);
    Files.createDirectories(memo.getParent());
    Files.writeString(memo, version + "\n" + key + "\n");
  }

  /** What {@link Planner#plan} makes for the job with these settled inputs: the reference. */
  private Plan fresh(
      RunPlans plans, LaunchAgent.Daemon daemon, NetworkPick network, String sshMasters) {
    return Planner.plan(
        job, PlannerTest.TWO_BY_EIGHT, plans.options(job, daemon, network, sshMasters));
  }

  @Test
  void aMultiNodeRunWithTheNetworkFoundAutomaticallyIsPlannedOnceAtTheHeadsAnswer()
      throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    // Before any node: bad input fails here, and no plan is made.
    plans.check(job);
    assertThat(made).hasValue(0);
    remember(plans, "4.1.4");
    // The head's first answer: its facts alone choose no network; the early start's plan.
    NetworkPick atHead = NetworkPick.settle(job, HEAD_ONLY, "gpu01");
    assertThat(atHead.value()).isEqualTo("(not chosen)");
    EarlyStart.Candidate c = plans.early(job, atHead, "/masters", data.toString());
    assertThat(c.daemon()).isEqualTo(LaunchAgent.Daemon.ORTED);
    assertThat(EarlyStart.startsAsIs(c.plan(), data.toString())).isTrue();
    assertThat(made).hasValue(1);
    // The checks are in: every node's facts choose 10.0.0.0/24. The same plan, the network settled.
    NetworkPick checked = NetworkPick.settle(job, EVERY_NODE, "gpu01");
    assertThat(checked.value()).isEqualTo("10.0.0.0/24");
    Plan first = launcher(plans, checked, "/masters", c).firstPlan();
    assertThat(made).as("plans made in one run").hasValue(1);
    assertThat(first).isEqualTo(fresh(plans, LaunchAgent.Daemon.ORTED, checked, "/masters"));
    assertThat(String.join(" ", first.launch()))
        .contains("--mca btl_tcp_if_include 10.0.0.0/24")
        .contains("NCCL_SOCKET_IFNAME==ens5");
    assertThat(String.join(" ", c.plan().launch())).doesNotContain("btl_tcp_if_include");
    // Open MPI 4's network is in mpirun's words: the container begun early still fits.
    assertThat(EarlyStart.containerWords(first)).isEqualTo(EarlyStart.containerWords(c.plan()));
    assertThat(first.launchEnv()).isEqualTo(c.plan().launchEnv());
    // The launcher finds the daemon it assumed: the same plan.
    assertThat(plans.forDaemon(job, checked, "/masters").apply(LaunchAgent.Daemon.ORTED))
        .isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void mpirunsSshSettledAfterTheHeadsAnswerIsPutIntoThePlan() throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.check(job);
    remember(plans, "4.1.4");
    NetworkPick atHead = NetworkPick.settle(job, HEAD_ONLY, "gpu01");
    EarlyStart.Candidate c = plans.early(job, atHead, "/planned", data.toString());
    // The logins did not keep their masters: mpirun's ssh rides on none.
    NetworkPick checked = NetworkPick.settle(job, EVERY_NODE, "gpu01");
    Plan first = launcher(plans, checked, null, c).firstPlan();
    assertThat(made).hasValue(1);
    assertThat(first).isEqualTo(fresh(plans, LaunchAgent.Daemon.ORTED, checked, null));
    assertThat(String.join(" ", c.plan().launch())).contains("OMPI_MCA_plm_rsh_args=");
    assertThat(String.join(" ", first.launch())).doesNotContain("OMPI_MCA_plm_rsh_args=");
  }

  @Test
  void aDaemonFoundOtherThanTheOneAssumedIsSettledIntoThePlan() throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.check(job);
    NetworkPick atHead = NetworkPick.settle(job, HEAD_ONLY, "gpu01");
    // Nothing remembered: the early start does not begin; the run assumes orted.
    EarlyStart.Candidate c = plans.early(job, atHead, "/masters", data.toString());
    assertThat(c.daemon()).isNull();
    NetworkPick checked = NetworkPick.settle(job, EVERY_NODE, "gpu01");
    MpirunLauncher mpirun = launcher(plans, checked, "/masters", c);
    assertThat(mpirun.firstPlan().daemon()).isEqualTo("orted");
    assertThat(made).hasValue(1);
    // The container has Open MPI 5: prted, in the same plan.
    Plan prted = plans.forDaemon(job, checked, "/masters").apply(LaunchAgent.Daemon.PRTED);
    assertThat(prted.daemon()).isEqualTo("prted");
    assertThat(prted).isEqualTo(fresh(plans, LaunchAgent.Daemon.PRTED, checked, "/masters"));
    assertThat(made).hasValue(1);
  }

  @Test
  void openMpi5RememberedIsPlannedOnceFromTheHeadsAnswerThroughTheChecks() throws Exception {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.check(job);
    remember(plans, "5.0.3");
    NetworkPick atHead = NetworkPick.settle(job, HEAD_ONLY, "gpu01");
    // The plan assumes orted, the memo says prted: settled, not made again.
    EarlyStart.Candidate c = plans.early(job, atHead, "/masters", data.toString());
    assertThat(c.daemon()).isEqualTo(LaunchAgent.Daemon.PRTED);
    assertThat(c.plan().daemon()).isEqualTo("prted");
    assertThat(c.plan()).isEqualTo(fresh(plans, LaunchAgent.Daemon.PRTED, atHead, "/masters"));
    assertThat(made).hasValue(1);
    NetworkPick checked = NetworkPick.settle(job, EVERY_NODE, "gpu01");
    Plan first = launcher(plans, checked, "/masters", c).firstPlan();
    assertThat(first).isEqualTo(fresh(plans, LaunchAgent.Daemon.PRTED, checked, "/masters"));
    // PRRTE's network is enroot start's variables: this start would not fit (why it never begins).
    assertThat(String.join(" ", first.launch()))
        .contains("PRTE_MCA_oob_tcp_if_include=10.0.0.0/24");
    assertThat(EarlyStart.containerWords(first)).isNotEqualTo(EarlyStart.containerWords(c.plan()));
    assertThat(made).hasValue(1);
  }

  @Test
  void aDaemonGivenIsPlannedOnceWithTheNetworkGiven() throws Exception {
    job = resolve(spec().mpi(network("10.0.0.0/24")).build());
    RunPlans plans = plans(LaunchOptions.Daemon.PRTED);
    plans.check(job);
    NetworkPick atHead = NetworkPick.settle(job, HEAD_ONLY, "gpu01");
    EarlyStart.Candidate c = plans.early(job, atHead, "/masters", data.toString());
    assertThat(c.daemon()).isEqualTo(LaunchAgent.Daemon.PRTED);
    NetworkPick checked = NetworkPick.settle(job, EVERY_NODE, "gpu01");
    MpirunLauncher mpirun =
        new MpirunLauncher(
            MpirunLauncher.Config.of(
                plans.forDaemon(job, checked, "/masters"), plans.given(), CanaryMode.OFF));
    Plan first = mpirun.firstPlan();
    assertThat(first.daemon()).isEqualTo("prted");
    assertThat(first).isEqualTo(fresh(plans, LaunchAgent.Daemon.PRTED, checked, "/masters"));
    assertThat(plans.forDaemon(job, checked, "/masters").apply(LaunchAgent.Daemon.PRTED))
        .isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void aPerNodeRunIsPlannedOnceAndItsPortPutIntoThatPlan() {
    ResolvedJob perNode = resolve(spec().launcher(LauncherKind.PER_NODE).build());
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

  @Test
  void anotherJobIsAnotherPlan() {
    RunPlans plans = plans(LaunchOptions.Daemon.AUTO);
    plans.plan(job, plans.options(job, null, null, null), null);
    ResolvedJob other = resolve(spec().command("uname").build());
    Plan p = plans.plan(other, plans.options(other, null, null, null), null);
    assertThat(p.launch()).endsWith("uname");
    assertThat(made).hasValue(2);
  }

  /**
   * {@link Planner#settle} is {@link Planner#plan} for the settled inputs, word for word (the text
   * and JSON {@code plan} shows too): for named, unnamed and direct containers, the hook or {@code
   * --no-hook}, the job's own MPI settings and input and output flags, from every daemon, network
   * and ssh to every other.
   */
  @Test
  void aSettledPlanIsThePlanOfTheSettledInputs() {
    String sqsh = ws.resolve("img.sqsh").toString();
    MpiSpec own =
        new MpiSpec(
            null,
            null,
            Map.of("btl", "^openib"),
            List.of("FOO=1"),
            List.of("--bind-to", "none"),
            null,
            "10.0.0.0/24",
            null);
    List<ResolvedJob> jobs =
        List.of(
            job,
            resolve(spec().image("docker://reg#lab/mpi:1").build()),
            resolve(JobSpecBuilder.hostnameJob(ws.toString()).image(sqsh).build()),
            resolve(JobSpecBuilder.hostnameJob(ws.toString()).image("docker://r#x:1").build()),
            resolve(spec().mpi(own).container(envFromHost("mine", "HOME", "PATH")).build()),
            resolve(spec().mpi(network("none")).build()),
            resolve(spec().mpi(network("ens5")).build()));
    int compared = 0;
    for (ResolvedJob j : jobs) {
      for (boolean hook : new boolean[] {true, false}) {
        for (JobIo io : List.of(JobIo.DEFAULT, new JobIo("all", true, true))) {
          List<PlanOptions> all = settledOptions(j, hook, io);
          for (PlanOptions from : all) {
            Plan made = Planner.plan(j, PlannerTest.TWO_BY_EIGHT, from);
            for (PlanOptions to : all) {
              Plan want = Planner.plan(j, PlannerTest.TWO_BY_EIGHT, to);
              Plan settled = Planner.settle(made, j, to);
              assertThat(settled).as("%s from %s to %s", j.image(), from, to).isEqualTo(want);
              compared++;
            }
            if (from == all.get(0)) {
              Plan last = Planner.settle(made, j, all.get(all.size() - 1));
              Plan want = Planner.plan(j, PlannerTest.TWO_BY_EIGHT, all.get(all.size() - 1));
              assertThat(PlanRenderer.text(last)).isEqualTo(PlanRenderer.text(want));
              assertThat(PlanRenderer.json(last)).isEqualTo(PlanRenderer.json(want));
            }
          }
        }
      }
    }
    assertThat(compared).isEqualTo(7 * 2 * 2 * 12 * 12);
  }

  /**
   * Every daemon, network (none yet, the head's, every node's) and ssh (none, masters) of {@code
   * j}: 12 options.
   */
  private static List<PlanOptions> settledOptions(ResolvedJob j, boolean hook, JobIo io) {
    List<PlanOptions> out = new ArrayList<>();
    for (LaunchAgent.Daemon d : LaunchAgent.Daemon.values()) {
      for (NetworkPick n :
          Arrays.asList(
              null,
              NetworkPick.settle(j, HEAD_ONLY, "gpu01"),
              NetworkPick.settle(j, EVERY_NODE, "gpu01"))) {
        for (String ssh : Arrays.asList(null, "/masters")) {
          out.add(
              new PlanOptions("RUN", d, hook, true).withNetwork(n).withSshMasters(ssh).withIo(io));
        }
      }
    }
    return out;
  }

  private static MpiSpec network(String network) {
    return new MpiSpec(null, null, null, null, null, null, network, null);
  }

  private static ContainerSpec envFromHost(String name, String... names) {
    return new ContainerSpec(
        null, name, null, null, null, null, null, null, List.of(names), null, null);
  }
}
