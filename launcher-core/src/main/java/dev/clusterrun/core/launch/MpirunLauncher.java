package dev.clusterrun.core.launch;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.remote.ExecResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Today's launcher: the Open MPI daemon found in the container ({@code mpirun --version},
 * remembered per image contents), then {@code enroot start … NAME mpirun …} on the head with output
 * streamed live; Open MPI's daemons start on the other nodes through the launch agent, each proving
 * itself as it starts ({@link DaemonProof}, {@link ProofGate}). With {@code --canary}, only the
 * canary (a short mpirun of the job's shape whose ranks prove they run inside this run's
 * container).
 */
public final class MpirunLauncher implements Launcher {
  private final Function<LaunchAgent.Daemon, Plan> planFor;
  private final LaunchAgent.Daemon daemon;
  private final CanaryMode canary;
  private final Map<String, DaemonProof.Node> knownNodes;
  private String headDataPath;
  private java.util.Set<String> chosenHosts;
  private String chosenBy;
  private EarlyStart.Slot early;
  private JobIo io = JobIo.DEFAULT;
  private java.io.InputStream consoleIn;
  private volatile HeadProcess current;
  private volatile boolean interrupted;
  private volatile Duration grace = Duration.ofSeconds(10);

  /** How long output may wait for a daemon's proof once ranks print (see {@link ProofGate}). */
  static final Duration PROOF_GRACE = Duration.ofSeconds(5);

  /** What the summary's {@code prepare} says when the job ran in the container begun early. */
  static final String EARLY_NOTE =
      "the head's enroot start began during the checks; the job's command waited until they"
          + " passed";

  /** How long the daemons may take to prove themselves at all. */
  static final Duration PROOF_DEADLINE = Duration.ofSeconds(120);

  /**
   * @param planFor the plan for a given daemon (orted for Open MPI 4, prted for 5)
   * @param daemon the daemon to use, or null to detect it with {@code mpirun --version} inside the
   *     container
   */
  public MpirunLauncher(
      Function<LaunchAgent.Daemon, Plan> planFor, LaunchAgent.Daemon daemon, CanaryMode canary) {
    this(planFor, daemon, canary, null);
  }

  /**
   * @param knownNodes each node's hostname and own mount namespace as the checks read them, or null
   *     to ask every node (one round over the open session)
   */
  public MpirunLauncher(
      Function<LaunchAgent.Daemon, Plan> planFor,
      LaunchAgent.Daemon daemon,
      CanaryMode canary,
      Map<String, DaemonProof.Node> knownNodes) {
    this.planFor = planFor;
    this.daemon = daemon;
    this.canary = canary;
    this.knownNodes = knownNodes;
  }

  /**
   * The head's ENROOT_DATA_PATH, as the checks read it: a named container made outside clusterrun
   * is then known by its root directory (inode and change time), so its Open MPI is asked once.
   */
  MpirunLauncher headDataPath(String path) {
    this.headDataPath = path;
    return this;
  }

  /**
   * The hosts the job's own mpirun arguments choose ({@link DaemonProof#chosenHosts}): only their
   * daemons must prove themselves; none when a file of the job's decides.
   *
   * @param by the arguments, for people
   */
  MpirunLauncher chosenHosts(java.util.Set<String> hosts, String by) {
    this.chosenHosts = hosts;
    this.chosenBy = by;
    return this;
  }

  /**
   * A start of the job's container begun during the checks ({@link EarlyStart}): the job runs in it
   * when it fits the plan, and it is stopped when the job does not run.
   */
  MpirunLauncher early(EarlyStart.Slot slot) {
    this.early = slot;
    return this;
  }

  /** The job's input and its ranks' output ({@code --stdin}, {@code --label}, …). */
  MpirunLauncher io(JobIo v) {
    this.io = v;
    return this;
  }

  /** What {@code mpirun --version} printed in the container (version null when none). */
  record Asked(String version, int exitCode, String stderr) {}

  private static Asked ask(HeadCommands head, String container)
      throws IOException, InterruptedException {
    HeadCommands.Captured v =
        head.capture(
            EnrootArgs.start(
                new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                List.of(),
                container,
                List.of("mpirun", "--version")),
            Map.of());
    return new Asked(openMpiVersion(v.stdout() + "\n" + v.stderr()), v.exitCode(), v.stderr());
  }

  /** The plan before the daemon is known (orted unless one was given). */
  Plan firstPlan() {
    return planFor.apply(daemon == null ? LaunchAgent.Daemon.ORTED : daemon);
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
      // Held still (no job, or the canary's only): down before anyone looks for leftovers.
      if (early != null) {
        early.stop();
      }
    }
  }

  /**
   * The job's mpirun, its output through {@code gate} to the person and to stdout.log and
   * stderr.log; with {@code --label} the ranks' lines from their own files ({@link RankOutput}).
   */
  private Started runJob(RunContext run, Plan plan, ProofGate gate)
      throws IOException, InterruptedException {
    Started job;
    try (OutputStream so = Files.newOutputStream(run.runDir().resolve("stdout.log"));
        OutputStream se = Files.newOutputStream(run.runDir().resolve("stderr.log"))) {
      OutputStream out = gate.out(run.console().out(), so);
      OutputStream err = gate.err(run.console().err(), se);
      // With --label, the ranks' lines come from their own files, labelled, through the same gate.
      RankOutput ranks =
          io.label()
              ? new RankOutput(
                  run.runDir().resolve(io.filesDir()),
                  labels(plan, run.session().head()),
                  gate.out(run.console().out(), so),
                  gate.err(run.console().err(), se))
              : null;
      try {
        job = start(plan, out, err, gate, ranks);
        if (ranks != null) {
          try {
            ranks.finish();
          } catch (IOException e) {
            run.say(
                "could not read every rank's output file in "
                    + run.runDir().resolve(io.filesDir())
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
    if (io.label() && !io.perRank()) {
      removeTree(run.runDir().resolve(io.filesDir()));
    }
    return job;
  }

  /** Each rank's label, {@code NODE:RANK} (the rank alone when Open MPI's mapping is unknown). */
  static java.util.function.IntFunction<String> labels(Plan plan, String head) {
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
    // The daemon matching the container's Open MPI.
    LaunchAgent.Daemon d = daemon;
    if (d == null) {
      d = detectDaemon(run);
      if (d == null) {
        run.tookPreparing();
        return Ending.of(RunEnd.PREPARE_FAILED);
      }
    }
    run.plan(planFor.apply(d));
    Plan plan = run.plan();
    run.writeRunFiles();
    run.tookPreparing();

    Map<String, DaemonProof.Node> nodes = nodes(run, plan);

    // The canary, as an explicit rehearsal (--canary): every rank in the container?
    long t;
    if (canary != CanaryMode.OFF && !interrupted) {
      t = System.nanoTime();
      run.say("canary: checking that every rank runs inside this run's container");
      Canary.Verdict c = runCanary(run, plan, nodes);
      run.canary(c);
      run.took("canary", t);
      // The proof, per node, before the job's own output.
      for (Canary.NodeVerdict v : c.nodes()) {
        run.say("canary: " + verdictLine(v, plan.np()));
      }
      if (interrupted) {
        return Ending.of(RunEnd.INTERRUPTED);
      }
      if (!c.ok()) {
        run.note(describe(c));
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
    ProofGate gate =
        new ProofGate(
            tally,
            () -> {
              List<String> proved = new ArrayList<>();
              for (DaemonProof.NodeProof p : tally.proofs()) {
                proved.add(p.node());
              }
              run.say(
                  proved.isEmpty()
                      ? "proof: no daemon to prove (every rank runs on this node, inside the"
                          + " container)"
                      : "proof: the daemons on "
                          + String.join(", ", proved)
                          + " run inside this run's container");
            });
    Started job = runJob(run, plan, gate);
    int exit = job.exit();
    run.took("job", t);
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

  /**
   * Every hostfile node with its hostname and own mount namespace, from the checks or asked now
   * (one round over the open session), and whether a daemon starts there through the agent.
   */
  private Map<String, DaemonProof.Node> nodes(RunContext run, Plan plan)
      throws InterruptedException {
    String head = run.session().head();
    Map<String, DaemonProof.Node> known = knownNodes;
    Map<String, ExecResult> answers = Map.of();
    if (known == null) {
      answers =
          run.session()
              .onEveryShell(
                  s ->
                      s.run(
                          "printf '%s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"",
                          Duration.ofSeconds(30)));
    }
    Map<String, DaemonProof.Node> nodes = new LinkedHashMap<>();
    for (String node : plan.nodes()) {
      boolean viaAgent = !node.equals(head);
      DaemonProof.Node k = known == null ? null : known.get(node);
      String hostname = k != null ? k.hostname() : null;
      String namespace = k != null ? k.namespace() : null;
      if (k == null) {
        ExecResult r = answers.get(node);
        String[] f = r == null ? new String[0] : r.stdout().strip().split("\\s+");
        boolean ok = r != null && r.ok() && f.length == 2;
        hostname = ok ? f[0] : null;
        namespace = ok ? f[1] : null;
      }
      boolean required =
          viaAgent
              && (chosenHosts == null
                  || chosenHosts.contains(node)
                  || (hostname != null && chosenHosts.contains(hostname)));
      nodes.put(node, new DaemonProof.Node(hostname, namespace, viaAgent, required));
    }
    if (chosenHosts != null) {
      List<String> req = new ArrayList<>();
      nodes.forEach(
          (n, e) -> {
            if (e.required()) {
              req.add(n);
            }
          });
      run.say(
          "proof: the job's mpirun arguments choose the hosts ("
              + chosenBy
              + "): "
              + (chosenHosts.isEmpty()
                  ? "every daemon that starts must prove itself, but none is required"
                  : req.isEmpty()
                      ? "no daemon is required (no other hostfile node is chosen)"
                      : "daemons are required on " + String.join(", ", req) + " only"));
    }
    return nodes;
  }

  /**
   * {@code mpirun --version} in the container; null (and why, in the run) when it cannot run. The
   * answer is remembered in the workspace for contents that cannot change unseen: an image file
   * (its path, size and time) or a named container made by clusterrun (its record of the image,
   * rewritten whenever it is made again), so the next run of the same contents starts no extra
   * container.
   */
  private LaunchAgent.Daemon detectDaemon(RunContext run) throws IOException, InterruptedException {
    Path ws = Path.of(run.plan().runDir()).getParent().getParent();
    String key = contentKey(run.plan(), ws, headDataPath);
    Path memo = key == null ? null : memo(ws, key);
    String remembered = key == null ? null : remembered(ws, key);
    if (remembered != null) {
      run.version("openmpi", remembered);
      LaunchAgent.Daemon d = daemonFor(remembered);
      run.say(
          "container has Open MPI "
              + remembered
              + " (asked before, same contents): remote daemons start as "
              + d.command());
      return d;
    }
    LaunchAgent.Daemon d = said(run, ask(run.head(), run.plan().containerName()));
    String ver = run.version("openmpi");
    if (d != null && memo != null && ver != null && !ver.equals("unknown")) {
      Files.createDirectories(memo.getParent());
      AtomicFiles.write(memo, ver + "\n" + key + "\n");
    }
    return d;
  }

  /**
   * The daemon remembered for the contents of {@code plan}'s container ({@link #detectDaemon}'s
   * record), or null when none is: read only, nothing asked.
   */
  static LaunchAgent.Daemon rememberedDaemon(Plan plan, String dataPath) throws IOException {
    Path ws = Path.of(plan.runDir()).getParent().getParent();
    String key = contentKey(plan, ws, dataPath);
    String v = key == null ? null : remembered(ws, key);
    return v == null ? null : daemonFor(v);
  }

  /**
   * What identifies the container's contents, or null when nothing does unseen changes. A named
   * container without clusterrun's record (made outside clusterrun) is known by its root directory
   * under {@code dataPath}: its inode and change time change when it is removed and made again.
   */
  static String contentKey(Plan plan, Path ws, String dataPath) throws IOException {
    if (plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.START_IMAGE)) {
      Path f = Path.of(plan.squashfs());
      if (Files.isRegularFile(f)) {
        return "image "
            + f.toAbsolutePath()
            + " "
            + Files.size(f)
            + " "
            + Files.getLastModifiedTime(f).toMillis();
      }
      return null;
    }
    if (plan.namedContainer()) {
      Path rec = ContainerPreparer.containerRecord(ws, plan.containerName());
      if (Files.isRegularFile(rec)) {
        return "container "
            + plan.containerName()
            + " "
            + Files.readString(rec, StandardCharsets.UTF_8).strip()
            + " "
            + Files.getLastModifiedTime(rec).toMillis();
      }
      if (dataPath != null && !dataPath.isEmpty()) {
        Path rootfs = Path.of(dataPath, plan.containerName());
        if (Files.isDirectory(rootfs, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Map<String, Object> a =
              Files.readAttributes(
                  rootfs, "unix:ino,ctime", java.nio.file.LinkOption.NOFOLLOW_LINKS);
          return "container "
              + plan.containerName()
              + " rootfs "
              + rootfs.toAbsolutePath()
              + " "
              + a.get("ino")
              + " "
              + ((java.nio.file.attribute.FileTime) a.get("ctime"))
                  .to(java.util.concurrent.TimeUnit.NANOSECONDS);
        }
      }
    }
    return null;
  }

  static LaunchAgent.Daemon daemonFor(String openMpiVersion) {
    return openMpiVersion != null && openMpiVersion.startsWith("5")
        ? LaunchAgent.Daemon.PRTED
        : LaunchAgent.Daemon.ORTED;
  }

  private static Path memo(Path ws, String key) {
    return ws.resolve(".clusterrun").resolve("openmpi").resolve(Sha256.hex(key) + ".version");
  }

  /** The Open MPI version remembered for contents {@code key}, or null. */
  private static String remembered(Path ws, String key) throws IOException {
    Path memo = memo(ws, key);
    if (!Files.isRegularFile(memo)) {
      return null;
    }
    String[] lines = Files.readString(memo, StandardCharsets.UTF_8).split("\n");
    if (lines.length >= 2 && lines[1].equals(key) && !lines[0].isBlank()) {
      return lines[0].strip();
    }
    return null;
  }

  /** The daemon for what {@code mpirun --version} said, said in the run; null when it failed. */
  private static LaunchAgent.Daemon said(RunContext run, Asked v) {
    String ver = v.version();
    run.version("openmpi", ver == null ? "unknown" : ver);
    if (v.exitCode() != 0 && ver == null) {
      run.note(
          "could not run `mpirun --version` in the container: "
              + ContainerPreparer.firstLine(v.stderr()));
      return null;
    }
    LaunchAgent.Daemon d = daemonFor(ver);
    run.say(
        "container has Open MPI "
            + run.version("openmpi")
            + ": remote daemons start as "
            + d.command());
    return d;
  }

  /** How the job's mpirun ended, and whether clusterrun stopped it for want of proof. */
  record Started(int exit, boolean proofStopped, boolean early) {}

  /**
   * The job: in the container begun during the checks when it fits, else started now; clusterrun's
   * standard input copied into it as {@code --stdin} says.
   *
   * @param ranks the ranks' own output files to follow while it runs ({@code --label}), or null
   */
  private Started start(
      Plan plan, OutputStream out, OutputStream err, ProofGate gate, RankOutput ranks)
      throws IOException, InterruptedException {
    java.io.InputStream input = io.forwardsInput() ? consoleIn : null;
    return start(plan.launch(), plan.launchEnv(), plan, out, err, gate, input, ranks);
  }

  /**
   * @param held the plan whose command may run in the container begun early (null: start anew)
   * @param input what is copied into the process's standard input (null: closed at once)
   */
  private Started start(
      List<String> argv,
      Map<String, String> env,
      Plan held,
      OutputStream out,
      OutputStream err,
      ProofGate gate,
      java.io.InputStream input,
      RankOutput ranks)
      throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    HeadProcess p = held == null || early == null ? null : early.go(held, out, err, input);
    boolean begunEarly = p != null;
    if (p == null && input != null) {
      p = HeadProcess.startWithInput(argv, env, out, err);
      dev.clusterrun.core.session.InputPump.start(input, p.stdin());
    } else if (p == null) {
      p = HeadProcess.start(argv, env, null, out, err);
    }
    current = p;
    if (interrupted) {
      p.interrupt();
    }
    boolean proofStopped = false;
    try {
      while (!p.waitFor(Duration.ofMillis(100))) {
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
    return (held >= 0 && now - held > PROOF_GRACE.toNanos()) || now - t0 > PROOF_DEADLINE.toNanos();
  }

  private Canary.Verdict runCanary(RunContext run, Plan plan, Map<String, DaemonProof.Node> nodes)
      throws IOException, InterruptedException {
    String head = run.session().head();
    Map<String, Integer> placement = plan.placement().placement(head);
    Map<String, Canary.Expected> expected = new LinkedHashMap<>();
    nodes.forEach(
        (node, n) ->
            expected.put(
                node,
                new Canary.Expected(
                    n.hostname(), n.namespace(), placement.get(node), n.viaAgent())));
    // A token only this run's head writes, read by every rank through the workspace mount.
    byte[] random = new byte[16];
    new java.security.SecureRandom().nextBytes(random);
    String token = java.util.HexFormat.of().formatHex(random);
    Path tokenFile = run.runDir().resolve(Canary.TOKEN_FILE);
    AtomicFiles.write(tokenFile, token + "\n");
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    // The canary's daemons leave their proof too: taken out of what people see, judged as well.
    ProofGate gate = new ProofGate(new DaemonProof.Tally(nodes, plan.runId()), () -> {});
    try (OutputStream log = Files.newOutputStream(run.runDir().resolve("canary.log"))) {
      OutputStream out = gate.out(buf, log);
      OutputStream err = gate.err(run.console().err(), log);
      Started c = start(plan.canaryLaunch(), plan.launchEnv(), null, out, err, gate, null, null);
      out.close();
      err.close();
      if (!gate.opened()) {
        gate.close(run.console().err());
      }
      code = c.exit();
      String failure = gate.opened() ? null : gate.tally().failure(true);
      if (failure != null) {
        run.note("the canary's launch did not prove itself: " + failure);
        code = code == 0 ? ExitCode.CHECK_FAILED.value() : code;
      }
    } finally {
      Files.deleteIfExists(tokenFile);
    }
    return Canary.judge(
        Canary.parse(buf.toString(StandardCharsets.UTF_8)),
        expected,
        plan.runId(),
        token,
        plan.np(),
        code);
  }

  /** One node's line of the canary's proof, for people. */
  static String verdictLine(Canary.NodeVerdict v, int np) {
    if (v.node() == null) {
      return v.hostname()
          + ": "
          + v.ranks()
          + " ranks answered from a host clusterrun does not know";
    }
    if (v.ranks() == 0) {
      return v.expected() != null && v.expected() == 0
          ? v.node() + ": no rank placed here (" + np + (np == 1 ? " rank" : " ranks") + " in all)"
          : v.node() + ": no rank answered" + expectedText(v);
    }
    String line = v.node() + ": " + v.inside() + "/" + v.ranks() + " ranks inside the container";
    if (v.outside() > 0) {
      line += "; " + v.outside() + " OUTSIDE";
    }
    if (v.foreign() > 0) {
      line += "; " + v.foreign() + " without this run's launch agent (" + v.foreignDetail() + ")";
    }
    if (v.expected() != null && v.expected() != v.ranks()) {
      line += expectedText(v);
    }
    return line;
  }

  private static String expectedText(Canary.NodeVerdict v) {
    return v.expected() == null ? "" : " (" + v.expected() + " expected by the mapping)";
  }

  /** Why the canary failed, node by node, for the summary and the person. */
  static String describe(Canary.Verdict c) {
    List<String> parts = new ArrayList<>();
    for (Canary.NodeVerdict v : c.nodes()) {
      if (v.ranks() > 0) {
        parts.addAll(problems(v));
      }
    }
    for (String m : c.missing()) {
      Canary.NodeVerdict v =
          c.nodes().stream().filter(x -> m.equals(x.node())).findFirst().orElse(null);
      parts.add(m + ": no rank answered" + (v == null ? "" : expectedText(v)));
    }
    if (parts.isEmpty() && c.answered() != c.expectedTotal()) {
      parts.add(c.answered() + " of " + c.expectedTotal() + " ranks answered");
    }
    if (c.exitCode() != 0) {
      parts.add("the canary's mpirun exited " + c.exitCode());
    }
    return "canary failed: " + String.join("; ", parts);
  }

  private static List<String> problems(Canary.NodeVerdict v) {
    String who = v.node() != null ? v.node() : v.hostname();
    List<String> parts = new ArrayList<>();
    if (v.node() == null) {
      parts.add(who + ": ranks answered from a host clusterrun does not know");
      return parts;
    }
    if (v.nodeNamespace() == null) {
      parts.add(who + ": its own mount namespace is unknown (the node did not answer over SSH)");
    }
    if (v.outside() > 0) {
      parts.add(
          who
              + ": "
              + v.outside()
              + " of "
              + v.ranks()
              + " ranks ran OUTSIDE the container (is the clusterrun hook executable? run"
              + " `clusterrun check`)");
    }
    if (v.foreign() > 0) {
      parts.add(
          who
              + ": "
              + v.foreign()
              + " of "
              + v.ranks()
              + " ranks ran in a container without this run's launch agent ("
              + v.foreignDetail()
              + "): another hook or setting replaces clusterrun's agent (run `clusterrun"
              + " check`, see launch-agent)");
    }
    if (v.expected() != null && v.expected() != v.ranks()) {
      parts.add(who + ": " + v.ranks() + " ranks answered, " + v.expected() + " expected");
    }
    return parts;
  }

  static String openMpiVersion(String text) {
    Matcher m = Pattern.compile("\\(Open MPI\\)\\s+([0-9][0-9.a-z]*)").matcher(text);
    return m.find() ? m.group(1) : null;
  }
}
