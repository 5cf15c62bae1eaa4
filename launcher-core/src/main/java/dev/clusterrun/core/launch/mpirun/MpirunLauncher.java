package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.head.HeadProcess;
import dev.clusterrun.core.launch.io.JobIo;
import dev.clusterrun.core.launch.io.RankOutput;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.proof.Canary;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.launch.proof.ProofGate;
import dev.clusterrun.core.launch.run.Ending;
import dev.clusterrun.core.launch.run.Launcher;
import dev.clusterrun.core.launch.run.RunContext;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.output.Counted;
import dev.clusterrun.core.output.Spool;
import dev.clusterrun.core.session.Follower;
import dev.clusterrun.core.session.InputPump;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Today's launcher, configured once ({@link Config}): the Open MPI daemon of the container ({@link
 * DaemonDetection}), then {@code enroot start … NAME mpirun …} on the head with output streamed
 * live; Open MPI's daemons start on the other nodes through the launch agent, each proving itself
 * as it starts ({@link DaemonProof}, {@link ProofGate}, for the nodes {@link ProofNodes} lists).
 * With {@code --canary}, only the canary ({@link CanaryRun}).
 */
public final class MpirunLauncher implements Launcher {
  /**
   * What the launcher is given, once.
   *
   * @param planFor the plan for a given daemon (orted for Open MPI 4, prted for 5)
   * @param daemon the daemon to use, or null to detect it with {@code mpirun --version} inside the
   *     container
   * @param assumed the daemon of the plan the run starts from when none is given (orted, or the one
   *     remembered for the container's contents)
   * @param knownNodes each node's hostname and own mount namespace as the checks read them, or null
   *     to ask every node (one round over the open session)
   * @param headDataPath the head's ENROOT_DATA_PATH as the checks read it, or null: a named
   *     container made outside clusterrun is then known by its root directory ({@link
   *     DaemonDetection})
   * @param chosen the hosts the job's own mpirun arguments choose, or null ({@link ChosenHosts})
   * @param early a start of the job's container begun during the checks ({@link EarlyStart}), or
   *     null: the job runs in it when it fits the plan
   * @param afterJob run once the launcher is done (stops an early start still held, before anyone
   *     looks for leftovers)
   * @param io the job's input and its ranks' output ({@code --stdin}, {@code --label}, …)
   */
  public record Config(
      Function<LaunchAgent.Daemon, Plan> planFor,
      LaunchAgent.Daemon daemon,
      LaunchAgent.Daemon assumed,
      CanaryMode canary,
      Map<String, DaemonProof.Node> knownNodes,
      String headDataPath,
      ChosenHosts chosen,
      EarlyStart.Slot early,
      AfterJob afterJob,
      JobIo io) {
    /** A launcher that asks every node, with no early start and the default input and output. */
    public static Config of(
        Function<LaunchAgent.Daemon, Plan> planFor, LaunchAgent.Daemon daemon, CanaryMode canary) {
      return new Config(
          planFor,
          daemon,
          LaunchAgent.Daemon.ORTED,
          canary,
          null,
          null,
          null,
          null,
          AfterJob.NONE,
          JobIo.DEFAULT);
    }

    /** The daemon assumed when none is given. */
    public Config assuming(LaunchAgent.Daemon d) {
      return new Config(
          planFor, daemon, d, canary, knownNodes, headDataPath, chosen, early, afterJob, io);
    }

    /** What the checks read of the nodes: each node's identity and the head's data path. */
    public Config knowing(Map<String, DaemonProof.Node> nodes, String dataPath) {
      return new Config(
          planFor, daemon, assumed, canary, nodes, dataPath, chosen, early, afterJob, io);
    }

    /** The hosts the job's mpirun arguments choose, and the job's input and output. */
    public Config choosing(ChosenHosts c, JobIo v) {
      return new Config(
          planFor, daemon, assumed, canary, knownNodes, headDataPath, c, early, afterJob, v);
    }

    /** The early start, and what runs once the launcher is done. */
    public Config withEarly(EarlyStart.Slot slot, AfterJob after) {
      return new Config(
          planFor, daemon, assumed, canary, knownNodes, headDataPath, chosen, slot, after, io);
    }
  }

  /** What runs once the launcher is done, whatever the end. */
  @FunctionalInterface
  public interface AfterJob {
    AfterJob NONE = () -> {};

    void run() throws InterruptedException;
  }

  private final Config config;
  private java.io.InputStream consoleIn;
  private volatile HeadProcess current;
  private volatile boolean interrupted;
  private volatile Duration grace = Duration.ofSeconds(10);

  /** What the summary's {@code prepare} says when the job ran in the container begun early. */
  static final String EARLY_NOTE =
      "the head's enroot start began during the checks; the job's command waited until they"
          + " passed";

  /** How long a stopped run's output may take to reach its reader before clusterrun goes on. */
  static final Duration STOPPED_OUTPUT_WAIT = Duration.ofSeconds(30);

  /** Where the spools of the run's head processes go: {@code RUN_DIR/.spool/N}. */
  private Path spoolDir;

  /** Where the launch speaks to people while it runs (the run's progress). */
  private Consumer<String> said = line -> {};

  private final AtomicInteger spools = new AtomicInteger();

  public MpirunLauncher(Config config) {
    this.config = config;
  }

  /** The plan before the daemon is known (the one given, else the one assumed). */
  public Plan firstPlan() {
    return config.planFor().apply(config.daemon() != null ? config.daemon() : config.assumed());
  }

  @Override
  public void interrupt() {
    interrupted = true;
    HeadProcess p = current;
    if (p != null) {
      p.interrupt();
    }
  }

  /**
   * A lost node never confirms an orderly stop (mpirun would wait for its daemon, and a SIGTERM
   * that ends {@code enroot start} first orphans mpirun out of reach): the whole process tree is
   * killed at once, children first; the other nodes' daemons lose mpirun and end, and the search
   * for leftovers does the rest.
   */
  @Override
  public void nodeLost(String node) {
    grace = Duration.ofSeconds(2);
    interrupted = true;
    HeadProcess p = current;
    if (p != null) {
      p.killTree();
    }
  }

  @Override
  public Ending launch(RunContext run) throws IOException, InterruptedException {
    try {
      return launchJob(run);
    } finally {
      // An early start held still (no job, or the canary's only): down before anyone looks for
      // leftovers.
      config.afterJob().run();
    }
  }

  /**
   * The job's mpirun, its output through {@code gate} to the person and to stdout.log and
   * stderr.log; with {@code --label} the ranks' lines from their own files ({@link RankOutput}).
   */
  private Started runJob(RunContext run, Plan plan, ProofGate gate)
      throws IOException, InterruptedException {
    Started job;
    try (OutputStream so =
            new Counted(
                Files.newOutputStream(run.runDir().resolve("stdout.log")), run.outputBytes(false));
        OutputStream se =
            new Counted(
                Files.newOutputStream(run.runDir().resolve("stderr.log")), run.outputBytes(true))) {
      OutputStream out = gate.out(run.console().out(), so);
      OutputStream err = gate.err(run.console().err(), se);
      // With --label, the ranks' lines come from their own files, labelled, through the same gate.
      RankOutput ranks =
          config.io().label()
              ? new RankOutput(
                  run.runDir().resolve(config.io().filesDir()),
                  labels(plan, run.session().head()),
                  gate.out(run.console().out(), so),
                  gate.err(run.console().err(), se))
              : null;
      try {
        java.io.InputStream input = config.io().forwardsInput() ? consoleIn : null;
        job =
            start(
                new Command(plan.launch(), plan.launchEnv(), plan, input),
                new Watch(out, err, gate, ranks));
        if (ranks != null) {
          try {
            ranks.finish();
          } catch (IOException e) {
            run.say(
                "could not read every rank's output file in "
                    + run.runDir().resolve(config.io().filesDir())
                    + ": "
                    + e.getMessage());
          }
        }
      } finally {
        if (ranks != null) {
          ranks.close();
        }
      }
      out.close();
      err.close();
      if (!gate.opened()) {
        gate.close(run.console().err());
      }
    }
    if (config.io().label() && !config.io().perRank()) {
      removeTree(run.runDir().resolve(config.io().filesDir()));
    }
    return job;
  }

  /** Each rank's label, {@code NODE:RANK} (the rank alone when Open MPI's mapping is unknown). */
  public static java.util.function.IntFunction<String> labels(Plan plan, String head) {
    List<String> nodes = plan.placement() == null ? List.of() : plan.placement().rankNodes(head);
    return rank -> rank < nodes.size() ? nodes.get(rank) + ":" + rank : Integer.toString(rank);
  }

  /** Removes {@code dir} and what it holds (the ranks' files once stdout.log holds them). */
  private static void removeTree(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // left behind in the run directory: harmless
    }
  }

  private Ending launchJob(RunContext run) throws IOException, InterruptedException {
    consoleIn = run.console().in();
    spoolDir = run.runDir().resolve(EarlyStart.SPOOL_DIR);
    said = run::say;
    // The daemon matching the container's Open MPI.
    LaunchAgent.Daemon d = config.daemon();
    if (d == null) {
      d = DaemonDetection.detect(run, config.headDataPath());
      if (d == null) {
        run.tookPreparing();
        return Ending.of(RunEnd.PREPARE_FAILED);
      }
    }
    run.plan(config.planFor().apply(d));
    Plan plan = run.plan();
    run.writeRunFiles();
    run.tookPreparing();

    Map<String, DaemonProof.Node> nodes =
        ProofNodes.of(run, plan, config.knownNodes(), config.chosen());

    // The canary, as an explicit rehearsal (--canary): every rank in the container?
    long t;
    CanaryMode canary = config.canary();
    if (canary != CanaryMode.OFF && !interrupted) {
      t = System.nanoTime();
      run.say("canary: checking that every rank runs inside this run's container");
      Canary.Verdict c =
          CanaryRun.run(
              run,
              plan,
              nodes,
              (argv, env, out, err, gate) ->
                  start(new Command(argv, env, null, null), new Watch(out, err, gate, null))
                      .exit());
      run.canary(c);
      run.took("canary", t);
      // The proof, per node, before the job's own output.
      for (Canary.NodeVerdict v : c.nodes()) {
        run.say("canary: " + CanaryRun.verdictLine(v, plan.np()));
      }
      if (interrupted) {
        return Ending.of(RunEnd.INTERRUPTED);
      }
      if (!c.ok()) {
        run.note(CanaryRun.describe(c));
        return Ending.of(RunEnd.CANARY_FAILED);
      }
      if (canary == CanaryMode.ONLY) {
        return Ending.of(RunEnd.SUCCEEDED);
      }
    }

    // The job; its daemons prove themselves as they start, before any rank can print.
    t = System.nanoTime();
    run.say("running: " + PlanRenderer.shell(plan.launch()));
    DaemonProof.Tally tally = new DaemonProof.Tally(nodes, plan.runId());
    ProofGate gate = new ProofGate(tally, () -> proven(run, tally));
    String contents = DaemonDetection.keyBeforeJob(plan, config.headDataPath());
    Started job = runJob(run, plan, gate);
    int exit = job.exit();
    run.took("job", t);
    DaemonDetection.carryOver(plan, config.headDataPath(), contents, run.version("openmpi"));
    if (job.early()) {
      run.prepared(List.of(EARLY_NOTE));
    }
    run.proof(tally.proofs());
    String failure = gate.opened() ? null : tally.failure(true);
    if (failure != null && (job.proofStopped() || !interrupted)) {
      run.note("the launch did not prove itself: " + failure);
      return Ending.of(RunEnd.PROOF_FAILED);
    }
    if (interrupted) {
      return Ending.of(RunEnd.INTERRUPTED);
    }
    return exit == 0 ? Ending.of(RunEnd.SUCCEEDED) : new Ending(RunEnd.FAILED, exit);
  }

  /** Every remote daemon proved itself: the run says which nodes, and how many joined. */
  private void proven(RunContext run, DaemonProof.Tally tally) {
    List<String> proved = new ArrayList<>();
    int joined = 0;
    for (DaemonProof.NodeProof p : tally.proofs()) {
      proved.add(p.node());
      joined += p.joined() ? 1 : 0;
    }
    run.say(
        proved.isEmpty()
            ? "proof: no daemon to prove (every rank runs on this node, inside the container)"
            : "proof: the daemons on "
                + String.join(", ", proved)
                + " run inside this run's container"
                + (joined == 0
                    ? ""
                    : " ("
                        + joined
                        + " of "
                        + proved.size()
                        + " joined it where it was begun during the checks)"));
  }

  /** How the job's mpirun ended, and whether clusterrun stopped it for want of proof. */
  record Started(int exit, boolean proofStopped, boolean early) {}

  /**
   * What starts: {@code argv} with {@code env}.
   *
   * @param held the plan whose command may run in the container begun early (null: start anew)
   * @param input what is copied into the process's standard input (null: closed at once)
   */
  private record Command(
      List<String> argv, Map<String, String> env, Plan held, java.io.InputStream input) {}

  /**
   * Where its output goes and what is watched while it runs.
   *
   * @param ranks the ranks' own output files to follow while it runs ({@code --label}), or null
   */
  private record Watch(OutputStream out, OutputStream err, ProofGate gate, RankOutput ranks) {}

  /**
   * The job: in the container begun during the checks when it fits, else started now; clusterrun's
   * standard input copied into it as {@code --stdin} says.
   */
  private Started start(Command what, Watch watch) throws IOException, InterruptedException {
    List<String> argv = what.argv();
    Map<String, String> env = what.env();
    Plan held = what.held();
    java.io.InputStream input = what.input();
    OutputStream out = watch.out();
    OutputStream err = watch.err();
    ProofGate gate = watch.gate();
    RankOutput ranks = watch.ranks();
    EarlyStart.Slot early = config.early();
    long t0 = System.nanoTime();
    HeadProcess p = held == null || early == null ? null : early.go(held, input);
    boolean begunEarly = p != null;
    if (p == null) {
      // The output in files of the run directory, never a pipe: see Spool.
      Spool spool = Spool.create(spoolDir.resolve(Integer.toString(spools.incrementAndGet())));
      try {
        p = HeadProcess.startSpooled(argv, env, spool, err, input != null);
      } catch (IOException | RuntimeException e) {
        spool.close();
        throw e;
      }
      if (input != null) {
        InputPump.start(input, p.stdin());
      }
    }
    Follower.Pair followers = p.spool().follow(out, err);
    current = p;
    if (interrupted) {
      p.interrupt();
    }
    boolean proofStopped = false;
    long slowSaid = t0;
    try {
      while (!p.waitFor(Duration.ofMillis(100))) {
        if (gate != null && System.nanoTime() - slowSaid >= SlowNodes.EVERY.toNanos()) {
          slowSaid = System.nanoTime();
          String slow = SlowNodes.note(gate, t0);
          if (slow != null) {
            said.accept(slow);
          }
        }
        if (ranks != null) {
          try {
            ranks.poll();
          } catch (IOException e) {
            // a file not readable this time (a network filesystem's hiccup): read again next time
          }
        }
        if (!interrupted && !proofStopped && gate != null && unproven(gate, t0)) {
          // A daemon without proof: the job must not go on, nor its output reach anyone.
          proofStopped = true;
          p.interrupt();
          if (!p.waitFor(Duration.ofSeconds(3))) {
            p.terminate();
            if (!p.waitFor(Duration.ofSeconds(3))) {
              p.killTree();
            }
          }
        }
        if (interrupted) {
          // mpirun got SIGINT; give it time to stop its daemons, then make sure.
          if (!p.waitFor(grace)) {
            p.terminate();
            if (!p.waitFor(
                grace.compareTo(Duration.ofSeconds(5)) < 0 ? grace : Duration.ofSeconds(5))) {
              p.killTree();
            }
          }
        }
      }
      int rc = p.waitFor();
      return new Started(rc, proofStopped, begunEarly);
    } finally {
      current = null;
      // Every byte the job wrote is in the spool: passed on before the run goes on. A reader that
      // takes nothing (a stopped pager) does not hold a stopped run for ever.
      try {
        followers.finish(interrupted ? STOPPED_OUTPUT_WAIT : null);
      } finally {
        p.spool().close();
      }
    }
  }

  /** A line failed, or output waits too long for proof, or the daemons never prove themselves. */
  private static boolean unproven(ProofGate gate, long t0) {
    if (gate.opened()) {
      return false;
    }
    if (gate.tally().failed()) {
      return true;
    }
    long now = System.nanoTime();
    long held = gate.firstHeld();
    return (held >= 0 && now - held > ProofGate.GRACE.toNanos())
        || now - t0 > ProofGate.DEADLINE.toNanos();
  }
}
