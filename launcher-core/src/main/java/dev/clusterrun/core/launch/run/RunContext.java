package dev.clusterrun.core.launch.run;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.Json;
import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.proof.Canary;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Session;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run as it goes: the open session and console, the plan (a launcher may settle it), the run
 * directory, and what has been gathered for {@code summary.json}, which is written from it whatever
 * happens.
 */
public final class RunContext {
  private final Session session;
  private final Console console;
  private final HeadCommands head;
  private final String jobFile;
  private Plan plan;
  private final Path runDir;
  private final Instant started = Instant.now();
  private final long t0 = System.nanoTime();
  private final Map<String, Double> durations = new LinkedHashMap<>();
  private final Map<String, String> versions = new LinkedHashMap<>();
  private final List<String> prepared = new ArrayList<>();
  private Canary.Verdict canary;
  private List<DaemonProof.NodeProof> proof = List.of();
  private List<RemoteReaper.Reaped> leftovers = List.of();
  private List<String> lostNodes = List.of();
  private String message;
  private volatile String endedBy;
  private Integer plans;
  private final AtomicLong stdoutBytes = new AtomicLong();
  private final AtomicLong stderrBytes = new AtomicLong();
  private FanOut.Task<Boolean> records;
  private volatile String recordsFailed;

  public RunContext(
      Session session,
      Console console,
      HeadCommands head,
      Plan plan,
      String jobFile,
      String clusterrunVersion) {
    this.session = session;
    this.console = console;
    this.head = head;
    this.plan = plan;
    this.jobFile = jobFile;
    this.runDir = Path.of(plan.runDir());
    versions.put("clusterrun", clusterrunVersion);
  }

  public Session session() {
    return session;
  }

  public Console console() {
    return console;
  }

  /** Runs commands on the head (clusterrun's own machine). */
  public HeadCommands head() {
    return head;
  }

  public Plan plan() {
    return plan;
  }

  /** Settles the plan (e.g. for the daemon found in the container). */
  public void plan(Plan settled) {
    this.plan = settled;
  }

  public Path runDir() {
    return runDir;
  }

  /** Says what is going on, for people. */
  public void say(String line) {
    console.progress().note(line);
  }

  /** The counter of the job's output bytes passed on to {@code stdout} (or {@code stderr}). */
  public AtomicLong outputBytes(boolean stderr) {
    return stderr ? stderrBytes : stdoutBytes;
  }

  private Map<String, Long> outputBytes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("stdout", stdoutBytes.get());
    m.put("stderr", stderrBytes.get());
    return m;
  }

  /** Why the run ended, when not by itself or by its outcome ({@link RunSummary#ended}). */
  void endedBy(String why) {
    endedBy = why;
  }

  /** Adds to the summary's message (why the run ended as it did). */
  public void note(String m) {
    message = message == null ? m : message + "; " + m;
  }

  /** Records how long connecting and checking took, before the run started. */
  void tookChecks(double seconds) {
    durations.put("checks", seconds);
  }

  /** Records how long preparing took: from the start of the run until now. */
  public void tookPreparing() {
    durations.put("prepare", secs(t0));
  }

  /** Records how long a phase took, in seconds. */
  void tookSeconds(String phase, double seconds) {
    durations.put(phase, Math.round(seconds * 100) / 100.0);
  }

  /** Records how long a phase took, from {@code since} ({@link System#nanoTime}). */
  public void took(String phase, long since) {
    durations.put(phase, secs(since));
  }

  public void version(String what, String version) {
    versions.put(what, version);
  }

  public String version(String what) {
    return versions.get(what);
  }

  public void canary(Canary.Verdict v) {
    canary = v;
  }

  /** What the remote daemons proved as they started. */
  public void proof(List<DaemonProof.NodeProof> p) {
    proof = List.copyOf(p);
  }

  public void prepared(List<String> actions) {
    prepared.addAll(actions);
  }

  List<String> prepared() {
    return prepared;
  }

  void lostNodes(List<String> nodes) {
    lostNodes = List.copyOf(nodes);
  }

  void leftovers(List<RemoteReaper.Reaped> found) {
    leftovers = found;
  }

  /**
   * Writes what the job reads (the hostfile, the launch agent's proof script, the file that skips
   * the entrypoint) before it returns; the run's records for people ({@code job.yaml}, {@code
   * plan.txt}, {@code plan.json}, {@code hosts.txt}) are written beside the job's start, and are
   * there before {@code summary.json}.
   */
  public void writeRunFiles() throws IOException {
    AtomicFiles.write(Path.of(plan.hostfileHostPath()), plan.hostfileContent());
    for (Map.Entry<String, String> f : plan.runFiles().entrySet()) {
      AtomicFiles.write(Path.of(f.getKey()), f.getValue());
    }
    Plan p = plan;
    // Beside the job's start, on the session's pool (a pool of one writes them first).
    records = session.fanOut().beside(() -> writeRecords(p));
  }

  private Boolean writeRecords(Plan p) {
    try {
      if (jobFile != null) {
        AtomicFiles.write(runDir.resolve("job.yaml"), jobFile);
      }
      AtomicFiles.write(runDir.resolve("plan.txt"), PlanRenderer.text(p));
      AtomicFiles.write(runDir.resolve("plan.json"), PlanRenderer.json(p));
      Path hosts = runDir.resolve("hosts.txt");
      if (!hosts.equals(Path.of(p.hostfileHostPath()))) {
        AtomicFiles.write(hosts, p.hostfileContent());
      }
      return Boolean.TRUE;
    } catch (IOException | RuntimeException e) {
      recordsFailed = e.toString();
      return Boolean.FALSE;
    }
  }

  /** Waits for the run's records ({@link #writeRunFiles}); a failure is said in the summary. */
  private void awaitRecords() {
    FanOut.Task<Boolean> t = records;
    if (t == null) {
      return;
    }
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      recordsFailed = "interrupted";
    }
    if (recordsFailed != null) {
      note("could not write the run's records (plan.json, plan.txt): " + recordsFailed);
    }
  }

  /** How many plans the run made, for {@code summary.json}. */
  void plansMade(int n) {
    plans = n;
  }

  /** Writes {@code summary.json} for how the run ended; returns the summary. */
  RunSummary finish(Ending end) throws IOException {
    awaitRecords();
    // The whole command: the checks before the run included.
    durations.put(
        "total", Math.round((secs(t0) + durations.getOrDefault("checks", 0.0)) * 100) / 100.0);
    List<String> left = new ArrayList<>();
    for (RemoteReaper.Reaped o : leftovers) {
      for (RemoteReaper.Leftover l : o.leftovers()) {
        left.add(o.node() + " pid " + l.pid());
      }
    }
    if (!left.isEmpty()) {
      say("killed what the run left behind: " + String.join(", ", left));
    }
    RunSummary s =
        RunSummary.builder()
            .plan(plan)
            .ended(end.end(), end.exitCode())
            .versions(versions)
            .times(started.toString(), Instant.now().toString())
            .durations(durations)
            .prepare(prepared)
            .canary(canary)
            .proof(proof)
            .leftovers(leftovers)
            .message(message)
            .lostNodes(lostNodes)
            .endedBy(
                endedBy != null
                    ? endedBy
                    : end.end() == RunEnd.SUCCEEDED || end.end() == RunEnd.FAILED
                        ? "job"
                        : end.end().label())
            .outputBytes(outputBytes())
            .plans(plans)
            .build();
    AtomicFiles.write(runDir.resolve("summary.json"), Json.pretty(s));
    return s;
  }

  public static double secs(long since) {
    return Math.round((System.nanoTime() - since) / 1e7) / 100.0;
  }
}
