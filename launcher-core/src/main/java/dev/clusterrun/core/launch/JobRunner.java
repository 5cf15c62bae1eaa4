package dev.clusterrun.core.launch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.FanOut;
import dev.clusterrun.core.remote.NodeShell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a planned job: container ready, workspace and run directory written, the Open MPI daemon
 * detected in the container, the canary, then {@code enroot start … mpirun …} on the head with
 * output streamed live; afterwards every node is searched for leftovers of the run, which are
 * killed by PID and reported. Never prints: output goes to the streams it is given.
 */
public final class JobRunner {
  public enum CanaryMode {
    OFF,
    BEFORE,
    ONLY
  }

  /** Says what is going on, for people (the CLI prints these lines to stderr). */
  public interface Listener {
    void step(String message);
  }

  /**
   * @param planFor the plan for a given daemon (orted for Open MPI 4, prted for 5)
   * @param daemon the daemon to use, or null to detect it with {@code mpirun --version} inside the
   *     container
   * @param shells every node's shell (the head's local one included), for the canary and the search
   *     for leftovers
   * @param head the node clusterrun (and so mpirun) runs on: Open MPI maps ranks to it first
   * @param jobFile the job file's text, kept in the run directory (null when given by flags)
   */
  public record Request(
      Function<LaunchAgent.Daemon, Plan> planFor,
      LaunchAgent.Daemon daemon,
      String workspace,
      Map<String, NodeShell> shells,
      String head,
      CanaryMode canary,
      String jobFile,
      String clusterrunVersion,
      OutputStream out,
      OutputStream err,
      Listener listener) {}

  /** The exit code to pass on and the summary written to the run directory. */
  public record Result(int exitCode, RunSummary summary, Path summaryFile) {}

  private final HeadCommands head;
  private volatile HeadProcess current;
  private volatile boolean interrupted;

  public JobRunner(HeadCommands head) {
    this.head = head;
  }

  /** Stops the run: SIGINT to the head's mpirun; {@link #run} then cleans up and returns 130. */
  public void interrupt() {
    interrupted = true;
    HeadProcess p = current;
    if (p != null) {
      p.interrupt();
    }
  }

  /** What one run has gathered so far; the summary is written from it whatever happens. */
  private static final class Run {
    final Request rq;
    Plan plan;
    final Path runDir;
    final Instant started = Instant.now();
    final long t0 = System.nanoTime();
    final Map<String, Double> durations = new LinkedHashMap<>();
    final Map<String, String> versions = new LinkedHashMap<>();
    final List<String> prepared = new ArrayList<>();
    Canary.Result canary;
    List<RemoteReaper.NodeOutcome> leftovers = List.of();
    String message;

    Run(Request rq, Plan plan) {
      this.rq = rq;
      this.plan = plan;
      this.runDir = Path.of(plan.runDir());
      versions.put("clusterrun", rq.clusterrunVersion());
    }

    void note(String m) {
      message = message == null ? m : message + "; " + m;
    }
  }

  /** How the run ended before clean-up: {@code outcome} as in {@link RunSummary}. */
  private record Ending(String outcome, int exitCode) {}

  public Result run(Request rq) throws IOException {
    Run r =
        new Run(
            rq, rq.planFor().apply(rq.daemon() == null ? LaunchAgent.Daemon.ORTED : rq.daemon()));
    Files.createDirectories(r.runDir);
    Ending end;
    boolean threadInterrupted = false;
    try {
      end = execute(r);
    } catch (InterruptedException e) {
      // Remembered, not re-raised yet: the clean-up below must still reach every node.
      threadInterrupted = true;
      interrupted = true;
      end = new Ending("interrupted", 130);
    }
    if (!end.outcome().equals("prepare-failed")) {
      cleanUp(r);
    }
    if (threadInterrupted) {
      Thread.currentThread().interrupt();
    }
    return finish(r, end);
  }

  /** Steps 1 to 5; returns early, with the reason in {@code r.message}, when one fails. */
  private Ending execute(Run r) throws IOException, InterruptedException {
    Request rq = r.rq;
    // 1. The container, once, in the shared data path.
    long t = System.nanoTime();
    rq.listener()
        .step(
            "container "
                + r.plan.containerName()
                + (r.plan.image() == null
                    ? ": using the existing container (no image given)"
                    : ": making sure it exists and matches " + r.plan.image()));
    try {
      r.prepared.addAll(
          new ContainerPreparer(head, rq.err()).prepare(r.plan, rq.workspace()).actions());
    } catch (ContainerPreparer.PrepareException e) {
      r.durations.put("prepare", secs(t));
      r.note(e.getMessage());
      return new Ending("prepare-failed", 4);
    }
    for (String a : r.prepared) {
      rq.listener().step(a);
    }

    // 2. The daemon matching the container's Open MPI.
    LaunchAgent.Daemon daemon = rq.daemon();
    if (daemon == null) {
      HeadCommands.Captured v =
          head.capture(
              EnrootArgs.start(
                  new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                  List.of(),
                  r.plan.containerName(),
                  List.of("mpirun", "--version")),
              Map.of());
      String ver = openMpiVersion(v.stdout() + "\n" + v.stderr());
      r.versions.put("openmpi", ver == null ? "unknown" : ver);
      if (v.exitCode() != 0 && ver == null) {
        r.note(
            "could not run `mpirun --version` in the container: "
                + ContainerPreparer.firstLine(v.stderr()));
        return new Ending("prepare-failed", 4);
      }
      daemon =
          ver != null && ver.startsWith("5") ? LaunchAgent.Daemon.PRTED : LaunchAgent.Daemon.ORTED;
      rq.listener()
          .step(
              "container has Open MPI "
                  + r.versions.get("openmpi")
                  + ": remote daemons start as "
                  + daemon.command());
    }
    r.plan = rq.planFor().apply(daemon);
    Plan plan = r.plan;

    // 3. Workspace and run directory: the hostfile mpirun reads, the job, the plan.
    AtomicFiles.write(Path.of(plan.hostfileHostPath()), plan.hostfileContent());
    for (Map.Entry<String, String> f : plan.runFiles().entrySet()) {
      AtomicFiles.write(Path.of(f.getKey()), f.getValue());
    }
    if (rq.jobFile() != null) {
      AtomicFiles.write(r.runDir.resolve("job.yaml"), rq.jobFile());
    }
    AtomicFiles.write(r.runDir.resolve("plan.txt"), PlanRenderer.text(plan));
    AtomicFiles.write(r.runDir.resolve("plan.json"), PlanRenderer.json(plan));
    AtomicFiles.write(r.runDir.resolve("hosts.txt"), plan.hostfileContent());
    r.durations.put("prepare", secs(t));

    // 4. The canary: every rank in the container?
    if (rq.canary() != CanaryMode.OFF && !interrupted) {
      t = System.nanoTime();
      rq.listener().step("canary: checking that every rank runs inside this run's container");
      r.canary = runCanary(rq, plan, r.runDir);
      r.durations.put("canary", secs(t));
      // The proof, per node, before the job's own output.
      for (Canary.NodeVerdict v : r.canary.nodes()) {
        rq.listener().step("canary: " + verdictLine(v, plan.np()));
      }
      if (interrupted) {
        return new Ending("interrupted", 130);
      }
      if (!r.canary.ok()) {
        r.note(describe(r.canary));
        return new Ending("canary-failed", 3);
      }
      if (rq.canary() == CanaryMode.ONLY) {
        return new Ending("succeeded", 0);
      }
    }

    // 5. The job.
    t = System.nanoTime();
    rq.listener().step("running: " + PlanRenderer.shell(plan.launch()));
    int exit;
    try (OutputStream so = Files.newOutputStream(r.runDir.resolve("stdout.log"));
        OutputStream se = Files.newOutputStream(r.runDir.resolve("stderr.log"))) {
      exit = launch(plan.launch(), plan.launchEnv(), new Tee(rq.out(), so), new Tee(rq.err(), se));
    }
    r.durations.put("job", secs(t));
    if (interrupted) {
      return new Ending("interrupted", 130);
    }
    return new Ending(exit == 0 ? "succeeded" : "failed", exit);
  }

  /** 6. Nothing of the run may stay behind on any node; then the plan's after-job steps. */
  private void cleanUp(Run r) {
    long t = System.nanoTime();
    try {
      r.leftovers = reap(r.rq, r.plan);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      r.note("the search for leftovers on the nodes was interrupted");
      return;
    }
    for (Plan.Step s : r.plan.cleanup()) {
      try {
        int code = head.run(s.argv(), Map.of(), r.rq.err(), r.rq.err());
        if (code != 0) {
          r.note(s.what() + " failed (exit " + code + ")");
        }
      } catch (IOException e) {
        r.note(s.what() + " failed: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    r.durations.put("cleanup", secs(t));
  }

  private int launch(List<String> argv, Map<String, String> env, OutputStream out, OutputStream err)
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
          if (!p.waitFor(Duration.ofSeconds(10))) {
            p.terminate();
            if (!p.waitFor(Duration.ofSeconds(5))) {
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

  private Canary.Result runCanary(Request rq, Plan plan, Path runDir)
      throws IOException, InterruptedException {
    // Each node's hostname and own mount namespace, read in a plain session on that node.
    Map<String, ExecResult> answers =
        parallel(
            rq.shells(),
            s ->
                s.run(
                    "printf '%s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"",
                    Duration.ofSeconds(30)));
    Map<String, Integer> placement = plan.placement().placement(rq.head());
    Map<String, Canary.Expected> expected = new LinkedHashMap<>();
    for (String node : plan.nodes()) {
      ExecResult r = answers.get(node);
      String[] f = r == null ? new String[0] : r.stdout().strip().split("\\s+");
      boolean known = r != null && r.ok() && f.length == 2;
      expected.put(
          node,
          new Canary.Expected(
              known ? f[0] : null,
              known ? f[1] : null,
              placement.get(node),
              !node.equals(rq.head())));
    }
    // A token only this run's head writes, read by every rank through the workspace mount.
    byte[] random = new byte[16];
    new java.security.SecureRandom().nextBytes(random);
    String token = java.util.HexFormat.of().formatHex(random);
    Path tokenFile = runDir.resolve(Canary.TOKEN_FILE);
    AtomicFiles.write(tokenFile, token + "\n");
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    try (OutputStream log = Files.newOutputStream(runDir.resolve("canary.log"))) {
      code =
          launch(plan.canaryLaunch(), plan.launchEnv(), new Tee(buf, log), new Tee(rq.err(), log));
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

  private List<RemoteReaper.NodeOutcome> reap(Request rq, Plan plan) throws InterruptedException {
    Map<String, RemoteReaper.NodeOutcome> r =
        parallel(rq.shells(), s -> RemoteReaper.reap(s, plan.runId(), Duration.ofSeconds(30)));
    return new ArrayList<>(r.values());
  }

  /** {@code f} on every node's shell at once (NodeShell answers failures as data). */
  private static <T> Map<String, T> parallel(
      Map<String, NodeShell> shells, Function<NodeShell, T> f) throws InterruptedException {
    List<String> nodes = new ArrayList<>(shells.keySet());
    List<T> results = new FanOut().map(nodes, n -> f.apply(shells.get(n)));
    Map<String, T> out = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      out.put(nodes.get(i), results.get(i));
    }
    return out;
  }

  private Result finish(Run r, Ending end) throws IOException {
    Request rq = r.rq;
    Plan plan = r.plan;
    String outcome = end.outcome();
    int exit = end.exitCode();
    Map<String, Double> durations = r.durations;
    List<RemoteReaper.NodeOutcome> leftovers = r.leftovers;
    durations.put("total", secs(r.t0));
    List<String> left = new ArrayList<>();
    for (RemoteReaper.NodeOutcome o : leftovers) {
      for (RemoteReaper.Leftover l : o.leftovers()) {
        left.add(o.node() + " pid " + l.pid());
      }
    }
    if (!left.isEmpty()) {
      rq.listener().step("killed what the run left behind: " + String.join(", ", left));
    }
    RunSummary s =
        new RunSummary(
            1,
            plan.jobName(),
            plan.runId(),
            plan.runDir(),
            outcome,
            exit,
            plan.nodes(),
            plan.np(),
            plan.image(),
            plan.containerName(),
            plan.daemon(),
            r.versions,
            r.started.toString(),
            Instant.now().toString(),
            durations,
            r.prepared,
            r.canary,
            leftovers,
            r.message);
    Path file = r.runDir.resolve("summary.json");
    AtomicFiles.write(
        file,
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s) + "\n");
    return new Result(exit, s, file);
  }

  static String describe(Canary.Result c) {
    List<String> parts = new ArrayList<>();
    for (Canary.NodeVerdict v : c.nodes()) {
      String who = v.node() != null ? v.node() : v.hostname();
      if (v.ranks() == 0) {
        continue;
      }
      if (v.node() == null) {
        parts.add(who + ": ranks answered from a host clusterrun does not know");
        continue;
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

  static String openMpiVersion(String text) {
    Matcher m = Pattern.compile("\\(Open MPI\\)\\s+([0-9][0-9.a-z]*)").matcher(text);
    return m.find() ? m.group(1) : null;
  }

  private static double secs(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
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
