package dev.clusterrun.core.launch;

import dev.clusterrun.core.check.CheckFlow;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.core.check.CheckJob;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.check.EnrootVersions;
import dev.clusterrun.core.check.FactParser;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.RegistryFacts;
import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.launch.container.ContainerLock;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.mpirun.ChosenHosts;
import dev.clusterrun.core.launch.mpirun.EarlyStart;
import dev.clusterrun.core.launch.mpirun.MpirunLauncher;
import dev.clusterrun.core.launch.pernode.PerNodeLauncher;
import dev.clusterrun.core.launch.plan.NetworkPick;
import dev.clusterrun.core.launch.plan.NodeContainers;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.launch.run.JobRunner;
import dev.clusterrun.core.launch.run.Launcher;
import dev.clusterrun.core.launch.run.RunContext;
import dev.clusterrun.core.launch.run.RunSummary;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.SshMasters;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One run of a resolved job, its steps in the order they run, each taking what the steps before it
 * returned: {@link #open} (the head's logins, the early start considered, the container lock, the
 * session: {@link Opened}), {@link #check} (the checks and the workspace's proof: {@link Checked}),
 * {@link #prepare} (the image pinned, the job finished, the network and the plan settled, the
 * launcher made: {@link Prepared}), {@link #launch} ({@link JobRunner} with the launcher: the run's
 * {@link RunSummary}) and {@link #finish} (what people hear of it). Closing {@link Opened} lets go
 * of what is still held, the early start among them. The attempt itself keeps only what it was
 * given.
 */
final class RunAttempt {
  /** How long the workspace's proof and the head's logins may take. */
  static final Duration PROOF_TIMEOUT = Duration.ofSeconds(30);

  private final Launch launch;
  private final JobFinisher finisher;
  private final Console console;
  private final RunPlans plans;
  private final long t0 = System.nanoTime();
  private final boolean checks;
  private final ImagePin pin;
  private final CheckJob checkJob;
  private final CheckFlow flow;

  /**
   * What {@link #open} holds until the run ends: the head's OpenSSH logins (null when the settings
   * do not allow them), the checks' opening, the early start (null when not considered; with the
   * other nodes' containers begun beside it), the container lock and the session.
   */
  record Opened(
      SshMasters masters,
      CheckFlow.Opening opening,
      EarlyStart.Slot early,
      ContainerLock.Held lock,
      Session session)
      implements AutoCloseable {
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
    void stopEarly() throws InterruptedException {
      if (early != null) {
        early.stop();
      }
    }

    /** The daemon the head's first answer named for the container's contents, or null. */
    LaunchAgent.Daemon earlyDaemon() {
      return early == null ? null : early.daemon();
    }
  }

  /**
   * What {@link #check} found: the checks' outcome (null when skipped), and why the run stops, or
   * null when it goes on.
   */
  record Checked(CheckFlow.Checked checks, LaunchOutcome stop) {
    /** The checks' report, or null when they were skipped. */
    CheckReport report() {
      return checks == null ? null : checks.report();
    }
  }

  /**
   * What {@link #prepare} settled: the job as it runs (pinned, finished), the plan it starts from
   * and its launcher; or why the run stops (the rest null).
   */
  record Prepared(ResolvedJob job, Plan plan, Launcher launcher, LaunchOutcome stop) {
    static Prepared stopped(LaunchOutcome why) {
      return new Prepared(null, null, null, why);
    }
  }

  RunAttempt(Launch launch, RunPlans plans, JobFinisher finisher, Console console) {
    this.launch = launch;
    this.plans = plans;
    this.finisher = finisher;
    this.console = console;
    ResolvedJob job = launch.job();
    this.checks = !launch.options().skipChecks();
    // The registry image's tag is asked once, on the head (the image check, or the early start).
    this.pin = job.imagePin();
    this.checkJob =
        new CheckJob(
            job.containerName().value(),
            job.mounts().value(),
            job.mountHome().value(),
            NodeContainers.startsImage(job),
            pin,
            NodeContainers.othersStartImage(job));
    // enroot's version is read once per executable (EnrootVersions), not on every run.
    this.flow = CheckFlow.standard().remembering(EnrootVersions.in(workspace()));
  }

  /**
   * The head's OpenSSH logins (when the settings allow them) are made the run's connections, the
   * facts and the proofs' first rounds riding on them; the head's container may start meanwhile
   * ({@link EarlyStart#consider}); then the container lock (with the checks) and the session. What
   * was begun is let go when a later part fails.
   */
  Opened open() throws IOException, InterruptedException {
    ResolvedJob job = launch.job();
    SshMasters masters = SshMasters.forSettings(job.ssh().explicit(), PROOF_TIMEOUT);
    CheckFlow.Opening opening = flow.opening(checkJob, selection(), workspace());
    if (masters != null && checks) {
      opening.give(masters);
    }
    if (checks) {
      makeWorkspace(workspace());
    }
    EarlyStart.Slot early =
        EarlyStart.consider(
            job,
            launch.options(),
            checks,
            finisher != JobFinisher.NONE,
            masters,
            (head, answer) -> candidate(masters, head, answer));
    ContainerLock.Held lock = ContainerLock.Held.NONE;
    Session session = null;
    try {
      // A named container another run is making is judged once it is made: the lock is taken
      // before the logins that gather the facts, and let go after the checks.
      if (checks) {
        lock = ContainerLock.hold(workspace(), job.containerName().value(), console.progress());
      }
      session = Session.open(launch.hostfile(), job.ssh().explicit(), console.progress(), masters);
      if (early != null) {
        // Every other node's container begins now, beside the rest of the checks.
        early.beginOthers(
            session.shells(),
            session.head(),
            session.fanOut(),
            Path.of(workspace()),
            sharesProcessors(session));
      }
      return new Opened(masters, opening, early, lock, session);
    } catch (InterruptedException | RuntimeException e) {
      try {
        new Opened(masters, opening, early, lock, session).close();
      } catch (IOException | InterruptedException | RuntimeException c) {
        e.addSuppressed(c);
      }
      throw e;
    }
  }

  /** Whether the other nodes share the head's processors, by the boot ids their facts name. */
  private static boolean sharesProcessors(Session session) {
    Session.Reach reach = session.reach();
    List<String> others =
        session.shells().keySet().stream()
            .filter(n -> !n.equals(session.head()))
            .map(n -> FactParser.bootId(reach.peekFirstAnswer(n)))
            .toList();
    return EarlyStart.sharesProcessors(
        FactParser.bootId(reach.peekFirstAnswer(session.head())), others);
  }

  /**
   * The checks and the workspace proven shared (or, with {@code --skip-checks}, every node
   * reached).
   */
  Checked check(Opened o) throws IOException, InterruptedException {
    Session session = o.session();
    if (!checks) {
      return new Checked(
          null,
          session.unreachable().isEmpty()
              ? null
              : new LaunchOutcome.Unreachable(session.unreachable()));
    }
    CheckFlow.Checked checked =
        flow.check(
            session,
            checkJob,
            selection(),
            workspace(),
            launch.job().launcher().value() != LauncherKind.PER_NODE,
            o.opening());
    o.lock().close();
    if (!checked.report().passed()) {
      return new Checked(checked, new LaunchOutcome.ChecksFailed(checked.report()));
    }
    // Proven with the data path; on its own only when that proof could not run.
    String problem =
        workspaceProblem(
            checked.workspace() != null
                ? checked.workspace()
                : SharedPathProof.ofDirectory(session, workspace(), PROOF_TIMEOUT));
    if (problem != null) {
      return new Checked(checked, new LaunchOutcome.WorkspaceNotShared(workspace(), problem));
    }
    console.progress().note("checks passed on " + launch.hostfile().names().size() + " nodes");
    return new Checked(checked, null);
  }

  /**
   * The image pinned, the job finished ({@link JobFinisher}), the network settled, then the plan
   * the run starts from and its launcher.
   */
  Prepared prepare(Opened o, Checked c) throws IOException, InterruptedException {
    Session session = o.session();
    CheckReport report = c.report();
    ResolvedJob job = launch.job();
    if (pin != null) {
      ImagePin.Outcome po = pinAfterChecks(session, report);
      if (!po.ok()) {
        return Prepared.stopped(new LaunchOutcome.ImageUnavailable(po.problem(), po.fix()));
      }
      if (po.pinned().warning() != null) {
        // Said by the image check's WARN too, which a run that passed does not show.
        console.progress().note("warning: " + po.pinned().warning());
      }
      job = job.pinnedTo(po.pinned());
    }
    job = finisher.finish(session, report, job);
    NetworkPick network =
        NetworkPick.settle(job, networkFacts(session, job, report), session.head());
    console.progress().note("network: " + network.value() + " (" + network.origin() + ")");
    Facts head = RunFacts.head(report, session.head());
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      Plan plan = plans.plan(job, plans.options(job, null, null, null), null);
      PerNodeLauncher perNode =
          new PerNodeLauncher(
              plan::withMasterPort, launch.options().label(), launch.options().keepGoing());
      perNode.input(launch.options().stdin());
      return new Prepared(job, plan, perNode, null);
    }
    SshMasters masters = o.masters();
    String ssh =
        RunFacts.usableMasters(
            masters != null
                ? masters.masters()
                : c.checks() == null ? null : c.checks().sshMasters(),
            head);
    MpirunLauncher mpirun =
        new MpirunLauncher(mpirunConfig(o, report, job, new NetworkAndSsh(network, ssh), head));
    return new Prepared(job, mpirun.firstPlan(), mpirun, null);
  }

  /** The network settled and the SSH masters mpirun's ssh rides on (null for none). */
  private record NetworkAndSsh(NetworkPick network, String ssh) {}

  /** The mpirun launcher's configuration: the plan for each daemon, and what the checks read. */
  private MpirunLauncher.Config mpirunConfig(
      Opened o, CheckReport report, ResolvedJob job, NetworkAndSsh net, Facts head) {
    LaunchAgent.Daemon remembered = plans.given() == null ? o.earlyDaemon() : null;
    Set<String> chosen = DaemonProof.chosenHosts(job.mpiArgs().value());
    return MpirunLauncher.Config.of(
            plans.forDaemon(job, net.network(), net.ssh()),
            plans.given(),
            launch.options().canary())
        .assuming(remembered != null ? remembered : LaunchAgent.Daemon.ORTED)
        .knowing(report == null ? null : RunFacts.knownNodes(report), RunFacts.dataPath(head))
        .choosing(
            chosen == null
                ? null
                : new ChosenHosts(chosen, String.join(" ", job.mpiArgs().value())),
            launch.options().io())
        .withEarly(o.early(), o::stopEarly);
  }

  /** The job run: the container ready, the launcher's processes, the clean-up on every node. */
  RunSummary launch(Opened o, Checked c, Prepared p) throws IOException {
    Session session = o.session();
    ResolvedJob job = p.job();
    JobRunner runner =
        new JobRunner(HeadCommands.LOCAL, session, console)
            .watchNodes(job.nodeTimeout().value())
            .countingPlans(plans::count)
            .timeLimit(job.time() == null ? null : job.time().value(), t0)
            .headDataPath(RunFacts.dataPath(RunFacts.head(c.report(), session.head())))
            .imageCacheLimit(
                job.imageCacheLimit().value() == null ? -1 : job.imageCacheLimit().value().bytes());
    try (Console.Handle h = console.interrupts().onInterrupt(runner::interrupt)) {
      return runner.run(
          new JobRunner.Request(
              p.plan(),
              job.workspacePath().value(),
              launch.jobFileText(),
              launch.clusterrunVersion(),
              p.launcher(),
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

  /**
   * What the head's first answer makes of the run ({@link EarlyStart#consider}): its facts, the
   * image's tag asked once with them (the checks take this answer), the network they settle, and
   * the plan for the daemon given or remembered for the container's contents.
   */
  private EarlyStart.Candidate candidate(SshMasters masters, String head, ExecResult answer)
      throws IOException {
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
      j = j.pinnedTo(o.pinned());
    }
    boolean others = launch.hostfile().names().stream().anyMatch(n -> !n.equals(head));
    NetworkPick network = NetworkPick.settle(j, Map.of(head, f), head);
    String ssh = others ? RunFacts.usableMasters(masters.plannedMasters(), f) : null;
    return plans.early(j, network, ssh, RunFacts.dataPath(f));
  }

  /**
   * The pin of the job's image: the image check's answer, or with {@code --skip-checks} one round
   * of facts and that check alone (the head's enroot settings say how to reach the registry).
   */
  private ImagePin.Outcome pinAfterChecks(Session session, CheckReport report)
      throws InterruptedException {
    ImagePin.Outcome o = pin.outcome();
    if (o == null && report == null) {
      CheckFlow.standard().check(session, checkJob, new CheckSelection(EnumSet.of(CheckId.IMAGE)));
      o = pin.outcome();
    }
    return o != null ? o : pin.resolve(RegistryFacts.headRegistrySettings());
  }

  /**
   * The facts the network is chosen from: the checks', or with {@code --skip-checks} and {@code
   * auto} one round of facts alone (no check judged).
   */
  private static Map<String, Facts> networkFacts(
      Session session, ResolvedJob job, CheckReport report) throws InterruptedException {
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

  private String workspace() {
    return launch.job().workspacePath().value();
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
