package dev.clusterrun.core.launch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
   * @param jobFile the job file's text, kept in the run directory (null when given by flags)
   */
  public record Request(
      Function<LaunchAgent.Daemon, Plan> planFor,
      LaunchAgent.Daemon daemon,
      String workspace,
      Map<String, NodeShell> shells,
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

  public Result run(Request rq) throws IOException {
    Instant started = Instant.now();
    long t0 = System.nanoTime();
    Map<String, Double> durations = new LinkedHashMap<>();
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("clusterrun", rq.clusterrunVersion());
    Plan plan = rq.planFor().apply(rq.daemon() == null ? LaunchAgent.Daemon.ORTED : rq.daemon());
    Path runDir = Path.of(plan.runDir());
    Files.createDirectories(runDir);
    List<String> prepared = new ArrayList<>();
    Canary.Result canary = null;
    List<RemoteReaper.NodeOutcome> leftovers = List.of();
    int exit;
    String outcome;
    String message = null;
    try {
      // 1. The container, once, in the shared data path.
      long t = System.nanoTime();
      rq.listener()
          .step(
              "container "
                  + plan.containerName()
                  + ": making sure it exists and matches "
                  + plan.image());
      try {
        prepared.addAll(
            new ContainerPreparer(head, rq.err()).prepare(plan, rq.workspace()).actions());
      } catch (ContainerPreparer.PrepareException e) {
        durations.put("prepare", secs(t));
        return finish(
            rq,
            plan,
            runDir,
            started,
            t0,
            durations,
            versions,
            prepared,
            null,
            List.of(),
            "prepare-failed",
            4,
            e.getMessage());
      }
      for (String a : prepared) {
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
                    plan.containerName(),
                    List.of("mpirun", "--version")),
                Map.of());
        String ver = openMpiVersion(v.stdout() + "\n" + v.stderr());
        versions.put("openmpi", ver == null ? "unknown" : ver);
        daemon =
            ver != null && ver.startsWith("5")
                ? LaunchAgent.Daemon.PRTED
                : LaunchAgent.Daemon.ORTED;
        if (v.exitCode() != 0 && ver == null) {
          message =
              "could not run `mpirun --version` in the container: "
                  + ContainerPreparer.firstLine(v.stderr());
          return finish(
              rq,
              plan,
              runDir,
              started,
              t0,
              durations,
              versions,
              prepared,
              null,
              List.of(),
              "prepare-failed",
              4,
              message);
        }
        rq.listener()
            .step(
                "container has Open MPI "
                    + versions.get("openmpi")
                    + ": remote daemons start as "
                    + daemon.command());
      }
      plan = rq.planFor().apply(daemon);

      // 3. Workspace and run directory: the hostfile mpirun reads, the job, the plan.
      writeAtomically(Path.of(plan.hostfileHostPath()), plan.hostfileContent());
      if (rq.jobFile() != null) {
        writeAtomically(runDir.resolve("job.yaml"), rq.jobFile());
      }
      writeAtomically(runDir.resolve("plan.txt"), PlanRenderer.text(plan));
      writeAtomically(runDir.resolve("plan.json"), PlanRenderer.json(plan));
      writeAtomically(runDir.resolve("hosts.txt"), plan.hostfileContent());
      durations.put("prepare", secs(t));

      // 4. The canary: every rank in the container?
      if (rq.canary() != CanaryMode.OFF && !interrupted) {
        t = System.nanoTime();
        rq.listener().step("canary: checking that every rank runs inside the container");
        canary = runCanary(rq, plan, runDir);
        durations.put("canary", secs(t));
        // The proof, per node, before the job's own output.
        for (Canary.NodeVerdict v : canary.nodes()) {
          rq.listener()
              .step(
                  "canary: "
                      + v.hostname()
                      + ": "
                      + v.inside()
                      + "/"
                      + v.ranks()
                      + " ranks inside the container");
        }
        for (String m : canary.missing()) {
          rq.listener().step("canary: " + m + ": no rank answered");
        }
        if (!canary.ok() && !interrupted) {
          message = describe(canary);
          leftovers = reap(rq, plan);
          return finish(
              rq,
              plan,
              runDir,
              started,
              t0,
              durations,
              versions,
              prepared,
              canary,
              leftovers,
              "canary-failed",
              3,
              message);
        }
        if (rq.canary() == CanaryMode.ONLY || interrupted) {
          exit = interrupted ? 130 : 0;
          leftovers = reap(rq, plan);
          return finish(
              rq,
              plan,
              runDir,
              started,
              t0,
              durations,
              versions,
              prepared,
              canary,
              leftovers,
              interrupted ? "interrupted" : "succeeded",
              exit,
              null);
        }
      }

      // 5. The job.
      t = System.nanoTime();
      rq.listener().step("running: " + PlanRenderer.shell(plan.launch()));
      try (OutputStream so = Files.newOutputStream(runDir.resolve("stdout.log"));
          OutputStream se = Files.newOutputStream(runDir.resolve("stderr.log"))) {
        exit =
            launch(plan.launch(), plan.launchEnv(), new Tee(rq.out(), so), new Tee(rq.err(), se));
      }
      durations.put("job", secs(t));
      outcome = interrupted ? "interrupted" : exit == 0 ? "succeeded" : "failed";
      if (interrupted) {
        exit = 130;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      interrupted = true;
      exit = 130;
      outcome = "interrupted";
    }

    // 6. Nothing of the run may stay behind on any node.
    long t = System.nanoTime();
    leftovers = reap(rq, plan);
    for (Plan.Step s : plan.cleanup()) {
      try {
        int code = head.run(s.argv(), Map.of(), rq.err(), rq.err());
        if (code != 0) {
          message =
              (message == null ? "" : message + "; ") + s.what() + " failed (exit " + code + ")";
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    durations.put("cleanup", secs(t));
    return finish(
        rq, plan, runDir, started, t0, durations, versions, prepared, canary, leftovers, outcome,
        exit, message);
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
    // Each node's own mount namespace, read in a plain session on that node.
    Map<String, String> nodeNs = new LinkedHashMap<>();
    Map<String, ExecResult> answers =
        parallel(
            rq.shells(),
            s ->
                s.run(
                    "printf '%s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"",
                    Duration.ofSeconds(30)));
    answers.forEach(
        (node, r) -> {
          String[] f = r.stdout().strip().split("\\s+");
          if (r.ok() && f.length == 2 && plan.nodes().contains(node)) {
            nodeNs.put(f[0], f[1]);
          }
        });
    List<String> canaryLaunch = plan.canaryLaunch();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    try (OutputStream log = Files.newOutputStream(runDir.resolve("canary.log"))) {
      code = launch(canaryLaunch, plan.launchEnv(), new Tee(buf, log), new Tee(rq.err(), log));
    }
    return Canary.judge(Canary.parse(buf.toString(StandardCharsets.UTF_8)), nodeNs, code);
  }

  private List<RemoteReaper.NodeOutcome> reap(Request rq, Plan plan) {
    Map<String, RemoteReaper.NodeOutcome> r =
        parallel(rq.shells(), s -> RemoteReaper.reap(s, plan.runId(), Duration.ofSeconds(30)));
    return new ArrayList<>(r.values());
  }

  private static <T> Map<String, T> parallel(
      Map<String, NodeShell> shells, Function<NodeShell, T> f) {
    Map<String, T> out = new LinkedHashMap<>();
    if (shells.isEmpty()) {
      return out;
    }
    ExecutorService ex =
        Executors.newFixedThreadPool(
            Math.min(64, shells.size()),
            r -> {
              Thread th = new Thread(r, "clusterrun-node");
              th.setDaemon(true);
              return th;
            });
    try {
      Map<String, Future<T>> fs = new LinkedHashMap<>();
      shells.forEach((n, s) -> fs.put(n, ex.submit((Callable<T>) () -> f.apply(s))));
      for (var e : fs.entrySet()) {
        try {
          out.put(e.getKey(), e.getValue().get());
        } catch (Exception err) {
          // A node that throws is reported by the callers as having no answer.
        }
      }
    } finally {
      ex.shutdownNow();
    }
    return out;
  }

  private Result finish(
      Request rq,
      Plan plan,
      Path runDir,
      Instant started,
      long t0,
      Map<String, Double> durations,
      Map<String, String> versions,
      List<String> prepared,
      Canary.Result canary,
      List<RemoteReaper.NodeOutcome> leftovers,
      String outcome,
      int exit,
      String message)
      throws IOException {
    durations.put("total", secs(t0));
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
            versions,
            started.toString(),
            Instant.now().toString(),
            durations,
            prepared,
            canary,
            leftovers,
            message);
    Path file = runDir.resolve("summary.json");
    writeAtomically(
        file,
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s) + "\n");
    return new Result(exit, s, file);
  }

  static String describe(Canary.Result c) {
    List<String> parts = new ArrayList<>();
    for (Canary.NodeVerdict v : c.nodes()) {
      if (v.nodeNamespace() == null) {
        parts.add(v.hostname() + ": ranks answered from a host clusterrun does not know");
      } else if (v.outside() > 0) {
        parts.add(
            v.hostname()
                + ": "
                + v.outside()
                + " of "
                + v.ranks()
                + " ranks ran OUTSIDE the container (is the clusterrun hook executable? run `clusterrun check`)");
      }
    }
    for (String m : c.missing()) {
      parts.add(m + ": no rank answered");
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

  static void writeAtomically(Path file, String content) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    Files.writeString(tmp, content, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
