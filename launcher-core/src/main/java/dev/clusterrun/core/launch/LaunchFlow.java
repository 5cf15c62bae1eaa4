package dev.clusterrun.core.launch;

import dev.clusterrun.core.check.CheckFlow;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.core.check.CheckJob;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.CheckSelection;
import dev.clusterrun.core.check.EnrootVersions;
import dev.clusterrun.core.check.HeadMasters;
import dev.clusterrun.core.check.SharedPathProof;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * The flow of {@code run}, shared by {@code hpl} and {@code bench}: resolve the job (flags over
 * environment over file), plan it (touching no node), connect, check, prove the workspace shared,
 * then hand over to {@link JobRunner} with its {@link Launcher}, Ctrl-C and SIGTERM turned into an
 * orderly stop on every node.
 */
public final class LaunchFlow {
  static final Duration PROOF_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Runs after the checks passed (or were skipped) and before the job; returns the job to run,
   * which may differ from the one given (e.g. {@code hpl} finishes its command from probes inside
   * the container). {@code report} is null when the checks were skipped.
   */
  @FunctionalInterface
  public interface JobFinisher {
    JobFinisher NONE = (session, report, job) -> job;

    ResolvedJob finish(Session session, CheckReport report, ResolvedJob job)
        throws IOException, InterruptedException;
  }

  /**
   * A resolved job, ready to launch.
   *
   * @param jobFileText the job file, kept in the run directory (null when given by flags)
   */
  public record Launch(
      Hostfile hostfile,
      ResolvedJob job,
      String runId,
      String jobFileText,
      LaunchOptions options,
      String clusterrunVersion) {}

  private LaunchFlow() {}

  /** {@code clusterrun run}: the job resolved and planned, then launched. */
  public static LaunchOutcome run(LaunchRequest rq, Console console)
      throws IOException, InterruptedException {
    Hostfile hostfile = rq.input().readHostfile();
    ResolvedJob job = rq.input().resolve(hostfile);
    String readAs = Planner.imageReadAs(job);
    if (readAs != null) {
      console.progress().note(readAs);
    }
    JobInput.checkOnTheHead(job);
    checkLauncher(job, hostfile, rq.options());
    String runId = newRunId(job.name().value());
    // Fail on a plan error (bad mounts, np) before touching any node.
    Planner.plan(
        job, hostfile, new Planner.Options(runId, LaunchAgent.Daemon.ORTED, rq.options().hook()));
    Launch launch =
        new Launch(
            hostfile, job, runId, rq.input().jobFileText(), rq.options(), rq.clusterrunVersion());
    return launch(launch, JobFinisher.NONE, console);
  }

  /**
   * {@code clusterrun plan}: what {@link #run} would execute, touching no node. With {@code
   * --mpi-daemon auto}, run asks the container; the plan shows Open MPI 4's orted.
   */
  public static Plan plan(LaunchRequest rq) {
    Hostfile hostfile = rq.input().readHostfile();
    ResolvedJob job = rq.input().resolve(hostfile);
    checkLauncher(job, hostfile, rq.options());
    LaunchAgent.Daemon fixed = rq.options().daemon().fixed();
    boolean auto = fixed == null;
    String runId = newRunId(job.name().value());
    ImagePin pin = pinOf(job);
    String imageNote = null;
    if (pin != null) {
      ImagePin.Outcome o = pin.resolve(CheckFlow.headRegistrySettings());
      if (o.ok()) {
        job = pinned(job, o.pinned());
        imageNote = imageNote(o.pinned());
      } else {
        imageNote = "not resolved: " + o.problem() + (o.fix() == null ? "" : "; " + o.fix());
      }
    }
    return ContainerPreparer.lookUp(
            Planner.plan(
                job,
                hostfile,
                new Planner.Options(
                        runId, auto ? LaunchAgent.Daemon.ORTED : fixed, rq.options().hook(), auto)
                    .withIo(rq.options().io())),
            job.workspacePath().value())
        .withImageNote(imageNote);
  }

  /**
   * The pin of the job's registry image, or null: none for an image nobody gave (a preset's
   * default) beside a named container, which is used as it is (Pyxis's habit, the plan's "only if
   * missing"): the registry is not asked for it.
   */
  static ImagePin pinOf(ResolvedJob job) {
    if (job.containerName().value() != null
        && job.image().source() == Source.DEFAULT
        && job.containerName().source() != Source.DEFAULT) {
      return null;
    }
    return ImagePin.of(job.image().value(), job.workspacePath().value());
  }

  /** The job with its registry image pinned to the digest the run uses. */
  static ResolvedJob pinned(ResolvedJob job, ImagePin.Pinned p) {
    Setting<dev.clusterrun.core.spec.ImageRef> s = job.image();
    return job.withImage(
        Setting.of(
            new dev.clusterrun.core.spec.ImageRef(
                dev.clusterrun.core.spec.ImageRef.Kind.URI, p.uri(), s.value().readAs()),
            s.source(),
            s.origin()));
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
        throw new dev.clusterrun.core.BadInputException(
            "--output-per-rank",
            "applies to the mpirun launcher only (per-node keeps each node's output in"
                + " NODE.stdout.log and NODE.stderr.log of the run directory)");
      }
      if (options.stdin().equals("all")) {
        throw new dev.clusterrun.core.BadInputException(
            "--stdin=all",
            "the per-node launcher gives the input to one node (--stdin=0, the first node, or"
                + " --stdin=N, the node of rank N in the hostfile) or none");
      }
      if (!options.stdin().equals("none")
          && Integer.parseInt(options.stdin()) >= hostfile.hosts().size()) {
        throw new dev.clusterrun.core.BadInputException(
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
      throw new dev.clusterrun.core.BadInputException(
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
    ResolvedJob job = launch.job();
    long t0 = System.nanoTime();
    // The head's OpenSSH logins are the run's connections (and carry mpirun's), when the settings
    // allow it.
    HeadMasters masters = HeadMasters.forSettings(job.ssh().explicit(), PROOF_TIMEOUT);
    boolean check = !launch.options().skipChecks();
    // The registry image's tag is asked once, on the head (the image check, or the early start).
    ImagePin pin = pinOf(job);
    CheckJob checkJob =
        new CheckJob(
            job.containerName().value(),
            job.mounts().value(),
            job.mountHome().value(),
            Planner.startsImage(job),
            pin);
    // enroot's version is read once per executable (EnrootVersions), not on every run.
    CheckFlow flow =
        CheckFlow.standard().remembering(EnrootVersions.in(job.workspacePath().value()));
    // The facts and the proofs' first rounds ride on the head's logins, and the head gathers its
    // own beside them.
    CheckFlow.Opening opening =
        flow.opening(checkJob, selection(launch.options()), job.workspacePath().value());
    if (masters != null && check) {
      opening.give(masters);
    }
    if (check) {
      makeWorkspace(job.workspacePath().value());
    }
    // The head's container starts while the logins are made, its command held until the checks
    // pass (EarlyStart).
    EarlyStart.Slot early =
        check && masters != null && finisher == JobFinisher.NONE && earlyCan(launch)
            ? new EarlyStart.Slot()
            : null;
    if (early != null) {
      masters.onHeadAnswer(
          (head, answer) -> beginEarly(early, launch, pin, head, answer, masters.plannedMasters()));
    }
    try {
      return connectAndRun(launch, finisher, console, masters, flow, opening, checkJob, early, t0);
    } finally {
      if (early != null) {
        early.stop();
      }
    }
  }

  /** Whether the job's launch can begin early at all: mpirun, no canary. */
  private static boolean earlyCan(Launch launch) {
    return launch.job().launcher().value() != LauncherKind.PER_NODE
        && launch.options().canary() == CanaryMode.OFF;
  }

  /**
   * Begins the job's container on the head from the head's own facts ({@link EarlyStart}), when the
   * words that start it are known already; else nothing (the job starts after the checks).
   */
  private static void beginEarly(
      EarlyStart.Slot slot,
      Launch launch,
      ImagePin pin,
      String head,
      ExecResult answer,
      String masters) {
    try {
      dev.clusterrun.core.check.Facts f = dev.clusterrun.core.check.FactParser.parse(head, answer);
      if (!f.answered()) {
        return;
      }
      ResolvedJob job = launch.job();
      if (pin != null) {
        // Asked here, once: the checks take this answer.
        ImagePin.Outcome o = pin.resolve(ImagePin.settings(CheckFlow.enrootValues(f)));
        if (!o.ok()) {
          return;
        }
        job = pinned(job, o.pinned());
      }
      boolean others = launch.hostfile().names().stream().anyMatch(n -> !n.equals(head));
      LaunchAgent.Daemon fixed = launch.options().daemon().fixed();
      Planner.Options o =
          new Planner.Options(
                  launch.runId(),
                  fixed == null ? LaunchAgent.Daemon.ORTED : fixed,
                  launch.options().hook(),
                  fixed == null)
              .withNetwork(NetworkPick.settle(job, java.util.Map.of(head, f), head))
              .withSshMasters(others ? usableMasters(masters, f) : null)
              .withIo(launch.options().io());
      Plan plan = Planner.plan(job, launch.hostfile(), o);
      LaunchAgent.Daemon d =
          fixed != null ? fixed : MpirunLauncher.rememberedDaemon(plan, f.storage().dataPath());
      if (d == null
          // PRRTE's network settings are enroot start's variables: known after every node's facts.
          || (d == LaunchAgent.Daemon.PRTED
              && JobResolver.NETWORK_AUTO.equals(job.network().value()))) {
        return;
      }
      if (d != o.daemon()) {
        plan =
            Planner.plan(
                job,
                launch.hostfile(),
                new Planner.Options(launch.runId(), d, launch.options().hook(), true)
                    .withNetwork(o.network())
                    .withSshMasters(o.sshMasters())
                    .withIo(o.io()));
      }
      if (EarlyStart.startsAsIs(plan, f.storage().dataPath())) {
        slot.begin(plan);
      }
    } catch (IOException | RuntimeException e) {
      // no early start: the job starts after the checks
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static LaunchOutcome connectAndRun(
      Launch launch,
      JobFinisher finisher,
      Console console,
      HeadMasters masters,
      CheckFlow flow,
      CheckFlow.Opening opening,
      CheckJob checkJob,
      EarlyStart.Slot early,
      long t0)
      throws IOException, InterruptedException {
    ResolvedJob job = launch.job();
    boolean check = !launch.options().skipChecks();
    // A named container another run is making is judged once it is made: the lock is taken before
    // the logins that gather the facts, and let go after the checks.
    try (ContainerLock.Held lock =
            check
                ? ContainerLock.hold(
                    job.workspacePath().value(), job.containerName().value(), console.progress())
                : ContainerLock.Held.NONE;
        Session session =
            Session.open(launch.hostfile(), job.ssh().explicit(), console.progress(), masters)) {
      CheckReport report = null;
      SharedPathProof.Verdict[] wsProof = {null};
      String[] sshMasters = {null};
      if (check) {
        CheckFlow.Checked r =
            flow.check(
                session,
                checkJob,
                selection(launch.options()),
                job.workspacePath().value(),
                job.launcher().value() != LauncherKind.PER_NODE,
                opening);
        lock.close();
        wsProof[0] = r.workspace();
        sshMasters[0] = r.sshMasters();
        report = r.report();
        if (!report.passed()) {
          return new LaunchOutcome.ChecksFailed(report);
        }
        String ws = job.workspacePath().value();
        // Proven with the data path; on its own only when that proof could not run.
        String problem =
            workspaceProblem(
                wsProof[0] != null
                    ? wsProof[0]
                    : SharedPathProof.ofDirectory(session, ws, PROOF_TIMEOUT));
        if (problem != null) {
          return new LaunchOutcome.WorkspaceNotShared(ws, problem);
        }
        console.progress().note("checks passed on " + launch.hostfile().names().size() + " nodes");
      } else if (!session.unreachable().isEmpty()) {
        return new LaunchOutcome.Unreachable(session.unreachable());
      }
      ImagePin pin = checkJob.image();
      if (pin != null) {
        ImagePin.Outcome o = pinAfterChecks(pin, session, checkJob, report);
        if (!o.ok()) {
          return new LaunchOutcome.ImageUnavailable(o.problem(), o.fix());
        }
        if (o.pinned().warning() != null) {
          // Said by the image check's WARN too, which a run that passed does not show.
          console.progress().note("warning: " + o.pinned().warning());
        }
        job = pinned(job, o.pinned());
      }
      ResolvedJob toRun = finisher.finish(session, report, job);
      NetworkPick network =
          NetworkPick.settle(toRun, networkFacts(session, report, toRun), session.head());
      console.progress().note("network: " + network.value() + " (" + network.origin() + ")");
      RunSummary s =
          runJob(
              launch,
              toRun,
              network,
              usableMasters(
                  masters != null ? masters.masters() : sshMasters[0],
                  report == null ? null : report.facts().get(session.head())),
              session,
              console,
              report,
              early,
              t0);
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
  }

  /**
   * The pin of the job's image: the image check's answer, or with {@code --skip-checks} one round
   * of facts and that check alone (the head's enroot settings say how to reach the registry).
   */
  private static ImagePin.Outcome pinAfterChecks(
      ImagePin pin, Session session, CheckJob checkJob, CheckReport report)
      throws InterruptedException {
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
  private static java.util.Map<String, dev.clusterrun.core.check.Facts> networkFacts(
      Session session, CheckReport report, ResolvedJob job) throws InterruptedException {
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

  /**
   * The head's SSH masters for mpirun's ssh, or null when the head's facts ({@code f}) show that
   * its enroot configuration or environment names an rsh/ssh agent of its own (mpirun's ssh is then
   * not the one the probe ran).
   */
  private static String usableMasters(String dir, dev.clusterrun.core.check.Facts f) {
    if (dir == null || f == null) {
      return null;
    }
    for (dev.clusterrun.core.check.AgentMention m : f.mpi().agents()) {
      if (m.active() && !m.comment() && !m.variable().endsWith("launch_agent")) {
        return null;
      }
    }
    return dir;
  }

  private static CheckSelection selection(LaunchOptions options) {
    EnumSet<CheckId> ids = EnumSet.allOf(CheckId.class);
    if (!options.hook()) {
      ids.remove(CheckId.HOOK);
    }
    return new CheckSelection(ids);
  }

  private static RunSummary runJob(
      Launch launch,
      ResolvedJob job,
      NetworkPick network,
      String sshMasters,
      Session session,
      Console console,
      CheckReport report,
      EarlyStart.Slot early,
      long t0)
      throws IOException {
    LaunchAgent.Daemon fixed = launch.options().daemon().fixed();
    boolean hook = launch.options().hook();
    if (job.launcher().value() == LauncherKind.PER_NODE) {
      Planner.Options o =
          new Planner.Options(launch.runId(), LaunchAgent.Daemon.ORTED, hook, fixed == null);
      PerNodeLauncher perNode =
          new PerNodeLauncher(
              port -> Planner.plan(job, launch.hostfile(), o, port),
              launch.options().label(),
              launch.options().keepGoing());
      perNode.input(launch.options().stdin());
      return run(
          launch,
          job,
          session,
          console,
          Planner.plan(job, launch.hostfile(), o, null),
          perNode,
          t0,
          headDataPath(report, session));
    }
    MpirunLauncher mpirun =
        new MpirunLauncher(
            d ->
                Planner.plan(
                    job,
                    launch.hostfile(),
                    new Planner.Options(launch.runId(), d, hook, fixed == null)
                        .withNetwork(network)
                        .withSshMasters(sshMasters)
                        .withIo(launch.options().io())),
            fixed,
            launch.options().canary(),
            report == null ? null : knownNodes(report));
    if (early != null) {
      mpirun.early(early);
    }
    mpirun.io(launch.options().io());
    java.util.Set<String> chosen = DaemonProof.chosenHosts(job.mpiArgs().value());
    if (chosen != null) {
      mpirun.chosenHosts(chosen, String.join(" ", job.mpiArgs().value()));
    }
    String dataPath = headDataPath(report, session);
    if (dataPath != null) {
      mpirun.headDataPath(dataPath);
    }
    return run(launch, job, session, console, mpirun.firstPlan(), mpirun, t0, dataPath);
  }

  private static RunSummary run(
      Launch launch,
      ResolvedJob job,
      Session session,
      Console console,
      Plan firstPlan,
      Launcher launcher,
      long t0,
      String headDataPath)
      throws IOException {
    JobRunner runner =
        new JobRunner(HeadCommands.LOCAL, session, console)
            .watchNodes(job.nodeTimeout().value())
            .headDataPath(headDataPath)
            .imageCacheLimit(
                job.imageCacheLimit().value() == null ? -1 : job.imageCacheLimit().value().bytes());
    try (Console.Handle h = console.interrupts().onInterrupt(runner::interrupt)) {
      return runner.run(
          new JobRunner.Request(
              firstPlan,
              job.workspacePath().value(),
              launch.jobFileText(),
              launch.clusterrunVersion(),
              launcher,
              RunContext.secs(t0)));
    }
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

  /** The head's ENROOT_DATA_PATH as its facts read it, or null (no checks, or no answer). */
  private static String headDataPath(CheckReport report, Session session) {
    dev.clusterrun.core.check.Facts f = report == null ? null : report.facts().get(session.head());
    return f == null ? null : f.storage().dataPath();
  }

  /** Each node's hostname and own mount namespace, as the checks read them. */
  private static java.util.Map<String, DaemonProof.Node> knownNodes(CheckReport report) {
    java.util.Map<String, DaemonProof.Node> m = new java.util.LinkedHashMap<>();
    report
        .facts()
        .forEach(
            (node, f) -> {
              if (f.problem() == null
                  && f.host().hostname() != null
                  && f.host().mountNamespace() != null) {
                m.put(
                    node,
                    new DaemonProof.Node(f.host().hostname(), f.host().mountNamespace(), true));
              }
            });
    return m;
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
