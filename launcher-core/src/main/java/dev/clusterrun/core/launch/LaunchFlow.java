package dev.clusterrun.core.launch;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.check.RegistryFacts;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.io.JobIo;
import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.plan.PerNodePlan;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.SettingsTable;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The entry of {@code run}, shared by {@code hpl} and {@code bench}: resolve the job (flags over
 * environment over file), plan it (touching no node), then one {@link RunAttempt} in its steps:
 * open, check, prepare, launch, finish. {@code plan} shows the plan alone.
 */
public final class LaunchFlow {
  private LaunchFlow() {}

  /** {@code clusterrun run}: the job resolved and planned, then launched. */
  public static LaunchOutcome run(LaunchRequest rq, Console console)
      throws IOException, InterruptedException {
    Hostfile hostfile = rq.input().readHostfile();
    ResolvedJob job = rq.input().resolve(hostfile);
    String readAs = SettingsTable.imageReadAs(job);
    if (readAs != null) {
      console.progress().note(readAs);
    }
    JobInput.checkOnTheHead(job);
    checkLauncher(job, hostfile, rq.options());
    String runId = newRunId(job.name().value());
    RunPlans plans = new RunPlans(hostfile, runId, rq.options());
    // Fail on what the plan would refuse (bad mounts, np) before touching any node.
    plans.check(job);
    Launch launch =
        new Launch(
            hostfile, job, runId, rq.input().jobFileText(), rq.options(), rq.clusterrunVersion());
    return launch(launch, plans, JobFinisher.NONE, console);
  }

  /** The run's first line: {@code nodes: 16 from SLURM_JOB_NODELIST (slots from …)}. */
  static String nodesLine(Hostfile hostfile) {
    int n = hostfile.hosts().size();
    return "nodes: " + n + " from " + hostfile.origin();
  }

  /** {@code clusterrun plan}: the {@link #plan}, as text for people or ({@code json}) JSON. */
  public static PlanOutcome show(LaunchRequest rq, boolean json) {
    return PlanOutcome.of(plan(rq), json);
  }

  /**
   * {@code clusterrun plan}: what {@link #run} would execute, touching no node. With {@code
   * --mpi-daemon auto}, run asks the container; the plan shows Open MPI 4's orted.
   */
  public static Plan plan(LaunchRequest rq) {
    Hostfile hostfile = rq.input().readHostfile();
    ResolvedJob job = rq.input().resolve(hostfile);
    checkLauncher(job, hostfile, rq.options());
    String runId = newRunId(job.name().value());
    ImagePin pin = job.imagePin();
    String imageNote = null;
    if (pin != null) {
      ImagePin.Outcome o = pin.resolve(RegistryFacts.headRegistrySettings());
      if (o.ok()) {
        job = job.pinnedTo(o.pinned());
        imageNote = imageNote(o.pinned());
      } else {
        imageNote = "not resolved: " + o.problem() + (o.fix() == null ? "" : "; " + o.fix());
      }
    }
    RunPlans plans = new RunPlans(hostfile, runId, rq.options());
    return ContainerPreparer.lookUp(
            plans.plan(job, plans.shown(), null), job.workspacePath().value())
        .withImageNote(imageNote);
  }

  /** What the plan says of the image's digest. */
  static String imageNote(ImagePin.Pinned p) {
    return p.reference()
        + " is "
        + p.digest()
        + (p.warning() != null
            ? " (" + p.warning() + ")"
            : p.uri().equals(p.reference())
                ? " (pinned by the job)"
                : " (the registry's answer now)");
  }

  /**
   * The launcher's own settings: per-node refuses what applies to mpirun only, and {@code
   * --keep-going} applies to per-node only; the job's input and output flags must not contradict
   * the job's own mpirun arguments.
   */
  static void checkLauncher(ResolvedJob job, Hostfile hostfile, LaunchOptions options) {
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      if (options.perRank()) {
        throw new BadInputException(
            "--output-per-rank",
            "applies to the mpirun launcher only (per-node keeps each node's output in"
                + " NODE.stdout.log and NODE.stderr.log of the run directory)");
      }
      if (options.stdin().equals("all")) {
        throw new BadInputException(
            "--stdin=all",
            "the per-node launcher gives the input to one node (--stdin=0, the first node, or"
                + " --stdin=N, the node of rank N in the hostfile) or none");
      }
      if (!options.stdin().equals("none")
          && Integer.parseInt(options.stdin()) >= hostfile.hosts().size()) {
        throw new BadInputException(
            "--stdin=" + options.stdin(),
            "the hostfile has "
                + hostfile.hosts().size()
                + " nodes (0 to "
                + (hostfile.hosts().size() - 1)
                + ")");
      }
      Integer fanout = job.ssh().fanout().value();
      PerNodePlan.refuseMpiSettings(
          job,
          options,
          hostfile.hosts().size(),
          fanout == null ? JobResolver.DEFAULT_FANOUT : fanout);
      return;
    }
    JobIo.checkAgainst(options.io(), job.mpiArgs().value(), job.np().value());
    List<String> given = new ArrayList<>();
    if (options.keepGoing()) {
      given.add("--keep-going");
    }
    if (!given.isEmpty()) {
      throw new BadInputException(
          String.join(", ", given),
          (given.size() == 1 ? "applies" : "apply")
              + " to --launcher=per-node only (the launcher is mpirun: "
              + JobResolver.subject(job.launcher(), "launcher")
              + ")");
    }
  }

  /** A new run id for a job of this name. */
  public static String newRunId(String jobName) {
    return Planner.newRunId(jobName, Instant.now(), new SecureRandom());
  }

  /** Connects, checks, finishes the job ({@code finisher}) and runs it. */
  public static LaunchOutcome launch(Launch launch, JobFinisher finisher, Console console)
      throws IOException, InterruptedException {
    return launch(
        launch,
        new RunPlans(launch.hostfile(), launch.runId(), launch.options()),
        finisher,
        console);
  }

  /** One run, its steps in order ({@link RunAttempt}); {@code plans} the run's plans so far. */
  private static LaunchOutcome launch(
      Launch launch, RunPlans plans, JobFinisher finisher, Console console)
      throws IOException, InterruptedException {
    // The run's first line, once its input is known good: how many nodes, and from where.
    console.progress().note(nodesLine(launch.hostfile()));
    RunAttempt run = new RunAttempt(launch, plans, finisher, console);
    try (RunAttempt.Opened opened = run.open()) {
      RunAttempt.Checked checked = run.check(opened);
      if (checked.stop() != null) {
        return checked.stop();
      }
      RunAttempt.Prepared prepared = run.prepare(opened, checked);
      if (prepared.stop() != null) {
        return prepared.stop();
      }
      return run.finish(run.launch(opened, checked, prepared));
    }
  }
}
