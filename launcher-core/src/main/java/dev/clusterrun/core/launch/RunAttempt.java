package dev.clusterrun.core.launch;

import dev.clusterrun.core.check.CheckFlow;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.core.check.CheckJob;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.check.EnrootVersions;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.SshMasters;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of a resolved job, its steps in the order they run: {@link #open} (the head's logins, the
 * early start considered, the container lock, the session), {@link #check} (the checks and the
 * workspace's proof), {@link #prepare} (the image pinned, the job finished, the network and the
 * plan settled, the launcher made), {@link #launch} ({@link JobRunner} with the launcher) and
 * {@link #finish} (what people hear of it). {@link #close} lets go of what is still held, the early
 * start first among them.
 */
final class RunAttempt implements AutoCloseable {
  private final LaunchFlow.Launch launch;
  private final LaunchFlow.JobFinisher finisher;
  private final Console console;
  private final RunPlans plans;
  private final long t0 = System.nanoTime();
  private final boolean checks;
  private final ImagePin pin;
  private final CheckJob checkJob;
  private final CheckFlow flow;
  private SshMasters masters;
  private CheckFlow.Opening opening;
  private EarlyStart.Slot early;
  private volatile LaunchAgent.Daemon earlyDaemon;
  private ContainerLock.Held lock = ContainerLock.Held.NONE;
  private Session session;
  private CheckFlow.Checked checked;
  private ResolvedJob job;
  private Plan firstPlan;
  private Launcher launcher;

  RunAttempt(
      LaunchFlow.Launch launch, RunPlans plans, LaunchFlow.JobFinisher finisher, Console console) {
    this.launch = launch;
    this.plans = plans;
    this.finisher = finisher;
    this.console = console;
    this.job = launch.job();
    this.checks = !launch.options().skipChecks();
    // The registry image's tag is asked once, on the head (the image check, or the early start).
    this.pin = LaunchFlow.pinOf(job);
    this.checkJob =
        new CheckJob(
            job.containerName().value(),
            job.mounts().value(),
            job.mountHome().value(),
            Planner.startsImage(job),
            pin,
            NodeContainers.othersStartImage(job));
    // enroot's version is read once per executable (EnrootVersions), not on every run.
    this.flow = CheckFlow.standard().remembering(EnrootVersions.in(workspace()));
  }

  /**
   * The head's OpenSSH logins (when the settings allow them) are made the run's connections, the
   * facts and the proofs' first rounds riding on them; the head's container may start meanwhile
   * ({@link EarlyStart#consider}); then the container lock (with the checks) and the session.
   */
  void open() throws IOException, InterruptedException {
    masters = SshMasters.forSettings(job.ssh().explicit(), LaunchFlow.PROOF_TIMEOUT);
    opening = flow.opening(checkJob, selection(), workspace());
    if (masters != null && checks) {
      opening.give(masters);
    }
    if (checks) {
      makeWorkspace(workspace());
    }
    early =
        EarlyStart.consider(
            launch, checks, finisher != LaunchFlow.JobFinisher.NONE, masters, this::candidate);
    // A named container another run is making is judged once it is made: the lock is taken before
    // the logins that gather the facts, and let go after the checks.
    if (checks) {
      lock = ContainerLock.hold(workspace(), job.containerName().value(), console.progress());
    }
    session = Session.open(launch.hostfile(), job.ssh().explicit(), console.progress(), masters);
  }

  /**
   * The checks and the workspace proven shared (or, with {@code --skip-checks}, every node
   * reached); null when the run goes on, else why it stops.
   */
  LaunchOutcome check() throws IOException, InterruptedException {
    if (!checks) {
      return session.unreachable().isEmpty()
          ? null
          : new LaunchOutcome.Unreachable(session.unreachable());
    }
    checked =
        flow.check(
            session,
            checkJob,
            selection(),
            workspace(),
            job.launcher().value() != LauncherKind.PER_NODE,
            opening);
    lock.close();
    if (!checked.report().passed()) {
      return new LaunchOutcome.ChecksFailed(checked.report());
    }
    // Proven with the data path; on its own only when that proof could not run.
    String problem =
        workspaceProblem(
            checked.workspace() != null
                ? checked.workspace()
                : SharedPathProof.ofDirectory(session, workspace(), LaunchFlow.PROOF_TIMEOUT));
    if (problem != null) {
      return new LaunchOutcome.WorkspaceNotShared(workspace(), problem);
    }
    console.progress().note("checks passed on " + launch.hostfile().names().size() + " nodes");
    return null;
  }

  /**
   * The image pinned, the job finished ({@link LaunchFlow.JobFinisher}), the network settled, then
   * the plan the run starts from and its launcher; null when the run goes on, else why it stops.
   */
  LaunchOutcome prepare() throws IOException, InterruptedException {
    CheckReport report = report();
    if (pin != null) {
      ImagePin.Outcome o = pinAfterChecks(report);
      if (!o.ok()) {
        return new LaunchOutcome.ImageUnavailable(o.problem(), o.fix());
      }
      if (o.pinned().warning() != null) {
        // Said by the image check's WARN too, which a run that passed does not show.
        console.progress().note("warning: " + o.pinned().warning());
      }
      job = LaunchFlow.pinned(job, o.pinned());
    }
    job = finisher.finish(session, report, job);
    NetworkPick network = NetworkPick.settle(job, networkFacts(report), session.head());
    console.progress().note("network: " + network.value() + " (" + network.origin() + ")");
    Facts head = RunFacts.head(report, session.head());
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      Planner.Options o = plans.options(job, null, null, null);
      firstPlan = plans.plan(job, o, null);
      PerNodeLauncher perNode =
          new PerNodeLauncher(
              firstPlan::withMasterPort, launch.options().label(), launch.options().keepGoing());
      perNode.input(launch.options().stdin());
      launcher = perNode;
      return null;
    }
    String ssh =
        RunFacts.usableMasters(
            masters != null ? masters.masters() : checked == null ? null : checked.sshMasters(),
            head);
    MpirunLauncher mpirun = new MpirunLauncher(mpirunConfig(network, ssh, head));
    firstPlan = mpirun.firstPlan();
    launcher = mpirun;
    return null;
  }

  /** The mpirun launcher's configuration: the plan for each daemon, and what the checks read. */
  private MpirunLauncher.Config mpirunConfig(NetworkPick network, String ssh, Facts head) {
    CheckReport report = report();
    LaunchAgent.Daemon remembered = earlyDaemon;
    java.util.Set<String> chosen = DaemonProof.chosenHosts(job.mpiArgs().value());
    return MpirunLauncher.Config.of(
            plans.forDaemon(job, network, ssh), plans.given(), launch.options().canary())
        .assuming(remembered != null ? remembered : LaunchAgent.Daemon.ORTED)
        .knowing(report == null ? null : RunFacts.knownNodes(report), RunFacts.dataPath(head))
        .choosing(
            chosen == null
                ? null
                : new MpirunLauncher.Chosen(chosen, String.join(" ", job.mpiArgs().value())),
            launch.options().io())
        .withEarly(early, this::stopEarly);
  }

  /** The job run: the container ready, the launcher's processes, the clean-up on every node. */
  RunSummary launch() throws IOException {
    JobRunner runner =
        new JobRunner(HeadCommands.LOCAL, session, console)
            .watchNodes(job.nodeTimeout().value())
            .countingPlans(plans::count)
            .timeLimit(job.time() == null ? null : job.time().value(), t0)
            .headDataPath(RunFacts.dataPath(RunFacts.head(report(), session.head())))
            .imageCacheLimit(
                job.imageCacheLimit().value() == null ? -1 : job.imageCacheLimit().value().bytes());
    try (Console.Handle h = console.interrupts().onInterrupt(runner::interrupt)) {
      return runner.run(
          new JobRunner.Request(
              firstPlan,
              workspace(),
              launch.jobFileText(),
              launch.clusterrunVersion(),
              launcher,
              RunContext.secs(t0)));
    }
  }

  /** What people hear of the run once it ended. */
  LaunchOutcome finish(RunSummary s) {
    if (s.message() != null) {
      console.progress().note(s.message());
    }
    console
        .progress()
        .note(
            String.format(
                Locale.ROOT,
                "run %s %s (exit %d) in %.1f s; run directory %s",
                s.runId(),
                s.outcome(),
                s.exitCode(),
                s.durationsSeconds().getOrDefault("total", 0.0),
                s.runDir()));
    return new LaunchOutcome.Ran(s);
  }

  /** The session, the lock (when the checks did not let it go) and an early start still held. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      try {
        if (session != null) {
          session.close();
        }
      } finally {
        lock.close();
      }
    } finally {
      stopEarly();
    }
  }

  /**
   * Stops the early start if one is still held: when the launcher is done with it (before anyone
   * looks for the run's leftovers) or when the run ends before the launcher. The one place it
   * stops.
   */
  private void stopEarly() throws InterruptedException {
    if (early != null) {
      early.stop();
    }
  }

  /**
   * What the head's first answer makes of the run ({@link EarlyStart#consider}): its facts, the
   * image's tag asked once with them (the checks take this answer), the network they settle, and
   * the plan for the daemon given or remembered for the container's contents.
   */
  private EarlyStart.Candidate candidate(String head, ExecResult answer) throws IOException {
    Facts f = RunFacts.headAnswer(head, answer);
    if (f == null) {
      return null;
    }
    ResolvedJob j = launch.job();
    if (pin != null) {
      ImagePin.Outcome o = RunFacts.pin(pin, f);
      if (!o.ok()) {
        return null;
      }
      j = LaunchFlow.pinned(j, o.pinned());
    }
    boolean others = launch.hostfile().names().stream().anyMatch(n -> !n.equals(head));
    NetworkPick network = NetworkPick.settle(j, Map.of(head, f), head);
    String ssh = others ? RunFacts.usableMasters(masters.plannedMasters(), f) : null;
    EarlyStart.Candidate c = plans.early(j, network, ssh, RunFacts.dataPath(f));
    if (plans.given() == null) {
      earlyDaemon = c.daemon();
    }
    return c;
  }

  /**
   * The pin of the job's image: the image check's answer, or with {@code --skip-checks} one round
   * of facts and that check alone (the head's enroot settings say how to reach the registry).
   */
  private ImagePin.Outcome pinAfterChecks(CheckReport report) throws InterruptedException {
    ImagePin.Outcome o = pin.outcome();
    if (o == null && report == null) {
      CheckFlow.standard().check(session, checkJob, new CheckSelection(EnumSet.of(CheckId.IMAGE)));
      o = pin.outcome();
    }
    return o != null ? o : pin.resolve(CheckFlow.headRegistrySettings());
  }

  /**
   * The facts the network is chosen from: the checks', or with {@code --skip-checks} and {@code
   * auto} one round of facts alone (no check judged).
   */
  private Map<String, Facts> networkFacts(CheckReport report) throws InterruptedException {
    if (report != null) {
      return report.facts();
    }
    if (!JobResolver.NETWORK_AUTO.equals(job.network().value())) {
      return null;
    }
    return CheckFlow.standard()
        .check(session, CheckJob.NONE, new CheckSelection(EnumSet.of(CheckId.NETWORK)))
        .facts();
  }

  /** The checks' report, or null when they were skipped. */
  private CheckReport report() {
    return checked == null ? null : checked.report();
  }

  private String workspace() {
    return job.workspacePath().value();
  }

  private CheckSelection selection() {
    EnumSet<CheckId> ids = EnumSet.allOf(CheckId.class);
    if (!launch.options().hook()) {
      ids.remove(CheckId.HOOK);
    }
    return new CheckSelection(ids);
  }

  /**
   * Makes the workspace on the head before any node looks for it with its facts: an NFS client that
   * looked a name up while it did not exist may keep that failed lookup for a while (nfs(5),
   * lookupcache), and the node would not see the workspace for the proof or for the job. When it
   * cannot be made, the head's part of the proof says why.
   */
  private static void makeWorkspace(String workspace) {
    if (workspace == null) {
      return;
    }
    try {
      Files.createDirectories(Path.of(workspace));
    } catch (IOException | RuntimeException e) {
      // said by the proof
    }
  }

  /** The workspace is mounted into every container: it must exist, shared, on every node. */
  private static String workspaceProblem(SharedPathProof.Verdict v) {
    if (v.headProblem() != null) {
      return "the head cannot create it: " + v.headProblem();
    }
    List<String> bad = new ArrayList<>();
    v.notShared().forEach((n, d) -> bad.add(n + " (" + d + ")"));
    return bad.isEmpty()
        ? null
        : "not shared with the head on "
            + String.join(", ", bad)
            + "; put the workspace on the shared filesystem";
  }
}
