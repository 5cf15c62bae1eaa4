package dev.clusterrun.core.launch;

import dev.clusterrun.core.AtomicFiles;
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
 * Today's launcher: the Open MPI daemon found in the container ({@code mpirun --version}), the
 * canary (a short mpirun of the job's shape whose ranks prove they run inside this run's
 * container), then {@code enroot start … NAME mpirun …} on the head with output streamed live; Open
 * MPI's daemons start on the other nodes through the launch agent.
 */
public final class MpirunLauncher implements Launcher {
  private final Function<LaunchAgent.Daemon, Plan> planFor;
  private final LaunchAgent.Daemon daemon;
  private final CanaryMode canary;
  private volatile HeadProcess current;
  private volatile boolean interrupted;
  private volatile Duration grace = Duration.ofSeconds(10);

  /**
   * @param planFor the plan for a given daemon (orted for Open MPI 4, prted for 5)
   * @param daemon the daemon to use, or null to detect it with {@code mpirun --version} inside the
   *     container
   */
  public MpirunLauncher(
      Function<LaunchAgent.Daemon, Plan> planFor, LaunchAgent.Daemon daemon, CanaryMode canary) {
    this.planFor = planFor;
    this.daemon = daemon;
    this.canary = canary;
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

    // The canary: every rank in the container?
    long t;
    if (canary != CanaryMode.OFF && !interrupted) {
      t = System.nanoTime();
      run.say("canary: checking that every rank runs inside this run's container");
      Canary.Verdict c = runCanary(run, plan);
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

    // The job.
    t = System.nanoTime();
    run.say("running: " + PlanRenderer.shell(plan.launch()));
    int exit;
    try (OutputStream so = Files.newOutputStream(run.runDir().resolve("stdout.log"));
        OutputStream se = Files.newOutputStream(run.runDir().resolve("stderr.log"))) {
      exit =
          start(
              plan.launch(),
              plan.launchEnv(),
              new Tee(run.console().out(), so),
              new Tee(run.console().err(), se));
    }
    run.took("job", t);
    if (interrupted) {
      return Ending.of(RunEnd.INTERRUPTED);
    }
    return exit == 0 ? Ending.of(RunEnd.SUCCEEDED) : new Ending(RunEnd.FAILED, exit);
  }

  /** {@code mpirun --version} in the container; null (and why, in the run) when it cannot run. */
  private LaunchAgent.Daemon detectDaemon(RunContext run) throws IOException, InterruptedException {
    HeadCommands.Captured v =
        run.head()
            .capture(
                EnrootArgs.start(
                    new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                    List.of(),
                    run.plan().containerName(),
                    List.of("mpirun", "--version")),
                Map.of());
    String ver = openMpiVersion(v.stdout() + "\n" + v.stderr());
    run.version("openmpi", ver == null ? "unknown" : ver);
    if (v.exitCode() != 0 && ver == null) {
      run.note(
          "could not run `mpirun --version` in the container: "
              + ContainerPreparer.firstLine(v.stderr()));
      return null;
    }
    LaunchAgent.Daemon d =
        ver != null && ver.startsWith("5") ? LaunchAgent.Daemon.PRTED : LaunchAgent.Daemon.ORTED;
    run.say(
        "container has Open MPI "
            + run.version("openmpi")
            + ": remote daemons start as "
            + d.command());
    return d;
  }

  private int start(List<String> argv, Map<String, String> env, OutputStream out, OutputStream err)
      throws IOException, InterruptedException {
    HeadProcess p = HeadProcess.start(argv, env, null, out, err);
    current = p;
    if (interrupted) {
      p.interrupt();
    }
    try {
      while (!p.waitFor(Duration.ofMillis(200))) {
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
      return p.waitFor();
    } finally {
      current = null;
    }
  }

  private Canary.Verdict runCanary(RunContext run, Plan plan)
      throws IOException, InterruptedException {
    String head = run.session().head();
    // Each node's hostname and own mount namespace, read in a plain session on that node.
    Map<String, ExecResult> answers =
        run.session()
            .onEveryShell(
                s ->
                    s.run(
                        "printf '%s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"",
                        Duration.ofSeconds(30)));
    Map<String, Integer> placement = plan.placement().placement(head);
    Map<String, Canary.Expected> expected = new LinkedHashMap<>();
    for (String node : plan.nodes()) {
      ExecResult r = answers.get(node);
      String[] f = r == null ? new String[0] : r.stdout().strip().split("\\s+");
      boolean known = r != null && r.ok() && f.length == 2;
      expected.put(
          node,
          new Canary.Expected(
              known ? f[0] : null, known ? f[1] : null, placement.get(node), !node.equals(head)));
    }
    // A token only this run's head writes, read by every rank through the workspace mount.
    byte[] random = new byte[16];
    new java.security.SecureRandom().nextBytes(random);
    String token = java.util.HexFormat.of().formatHex(random);
    Path tokenFile = run.runDir().resolve(Canary.TOKEN_FILE);
    AtomicFiles.write(tokenFile, token + "\n");
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    try (OutputStream log = Files.newOutputStream(run.runDir().resolve("canary.log"))) {
      code =
          start(
              plan.canaryLaunch(),
              plan.launchEnv(),
              new Tee(buf, log),
              new Tee(run.console().err(), log));
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

  /** Copies to two streams, flushing each write so output is live. */
  static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int x) throws IOException {
      a.write(x);
      b.write(x);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      a.flush();
      b.write(buf, off, len);
      b.flush();
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }
}
