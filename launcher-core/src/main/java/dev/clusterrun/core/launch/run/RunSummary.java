package dev.clusterrun.core.launch.run;

import dev.clusterrun.core.image.ImageCache;
import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.proof.Canary;
import dev.clusterrun.core.launch.proof.DaemonProof;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code summary.json} in the run directory says about one run (its fields are that file's
 * keys, in order). Made with {@link #builder()}.
 *
 * @param outcome how the run ended ({@code succeeded}, {@code failed}, {@code interrupted}, {@code
 *     proof-failed}, {@code canary-failed}, {@code prepare-failed})
 * @param exitCode what clusterrun exits with: the job's own code, or the table's
 * @param durationsSeconds wall time of each phase: checks (connecting, the node checks and the
 *     workspace proof), prepare (the container and the daemon), canary (with {@code --canary}),
 *     job, cleanup (the search for leftovers and the after-job steps), total (from the start of the
 *     command)
 * @param proof what each remote daemon proved as it started (node, hostname, mount namespace)
 * @param imageDigest the manifest digest of the registry image the run used, or null
 * @param nodesFrom where the nodes came from (the hostfile, {@code --nodes LIST}, a scheduler's
 *     allocation), or null
 * @param lostNodes nodes that stopped answering while the job ran ({@code node-lost})
 * @param ended why the run ended: {@code job} (by itself, whatever its exit code), {@code
 *     time-limit} ({@code --time}), {@code SIGINT}, {@code SIGTERM}, {@code SIGHUP}, {@code
 *     SIGPIPE} (the reader of clusterrun's output went away), else the outcome's word
 * @param outputBytes the bytes of the job's output passed on, {@code stdout} and {@code stderr}:
 *     what the run directory's logs hold (per node: the nodes' logs together)
 * @param plans how many plans the run made ({@link Planner#plan} through its {@link RunPlans}):
 *     one, what the run settles afterwards put into it ({@link Planner#settle}); null when not
 *     counted
 */
public record RunSummary(
    int schema,
    String job,
    String runId,
    String runDir,
    RunEnd outcome,
    int exitCode,
    List<String> nodes,
    String nodesFrom,
    int ranks,
    String image,
    String imageDigest,
    String container,
    String daemon,
    Map<String, String> versions,
    String startedAt,
    String endedAt,
    Map<String, Double> durationsSeconds,
    List<String> prepare,
    Canary.Verdict canary,
    List<DaemonProof.NodeProof> proof,
    List<RemoteReaper.Reaped> leftovers,
    String message,
    List<String> lostNodes,
    String ended,
    Map<String, Long> outputBytes,
    Integer plans) {

  public static final int SCHEMA = 1;

  public static Builder builder() {
    return new Builder();
  }

  /** Whether the job itself ran to its end (whatever its exit code). */
  public boolean jobRan() {
    return outcome == RunEnd.SUCCEEDED || outcome == RunEnd.FAILED;
  }

  /** Builds a summary field by field; unset lists and maps are empty. */
  public static final class Builder {
    private String job;
    private String runId;
    private String runDir;
    private RunEnd outcome;
    private String ended;
    private Map<String, Long> outputBytes = new LinkedHashMap<>();
    private int exitCode;
    private List<String> nodes = List.of();
    private String nodesFrom;
    private int ranks;
    private String image;
    private String imageDigest;
    private String container;
    private String daemon;
    private Map<String, String> versions = Map.of();
    private String startedAt;
    private String endedAt;
    private Map<String, Double> durations = Map.of();
    private List<String> prepare = List.of();
    private Canary.Verdict canary;
    private List<DaemonProof.NodeProof> proof = List.of();
    private List<RemoteReaper.Reaped> leftovers = List.of();
    private String message;
    private List<String> lostNodes = List.of();
    private Integer plans;

    private Builder() {}

    /** The job's name, run id and run directory, its nodes and ranks, image, container, daemon. */
    public Builder plan(Plan p) {
      job = p.jobName();
      runId = p.runId();
      runDir = p.runDir();
      nodes = List.copyOf(p.nodes());
      nodesFrom = p.nodesFrom();
      ranks = p.np();
      image = p.image();
      imageDigest = ImageCache.digestOf(p.image());
      container = p.containerName();
      daemon = p.daemon();
      return this;
    }

    /** How the run ended and the exit code that says it. */
    public Builder ended(RunEnd end, int exit) {
      outcome = end;
      exitCode = exit;
      return this;
    }

    public Builder versions(Map<String, String> v) {
      versions = new LinkedHashMap<>(v);
      return this;
    }

    /** Start and end, as ISO-8601 instants. */
    public Builder times(String started, String ended) {
      startedAt = started;
      endedAt = ended;
      return this;
    }

    public Builder durations(Map<String, Double> v) {
      durations = new LinkedHashMap<>(v);
      return this;
    }

    public Builder prepare(List<String> v) {
      prepare = new ArrayList<>(v);
      return this;
    }

    public Builder canary(Canary.Verdict v) {
      canary = v;
      return this;
    }

    public Builder proof(List<DaemonProof.NodeProof> v) {
      proof = new ArrayList<>(v);
      return this;
    }

    public Builder leftovers(List<RemoteReaper.Reaped> v) {
      leftovers = new ArrayList<>(v);
      return this;
    }

    public Builder message(String v) {
      message = v;
      return this;
    }

    /** The nodes that stopped answering while the job ran (the watchdog's, see --node-timeout). */
    public Builder lostNodes(List<String> v) {
      lostNodes = List.copyOf(v);
      return this;
    }

    /**
     * Why the run ended ({@code job}: by itself, whatever its code; {@code time-limit}; {@code
     * SIGINT}, {@code SIGTERM}, {@code SIGHUP}, {@code SIGPIPE}; else the outcome's word).
     */
    public Builder endedBy(String v) {
      ended = v;
      return this;
    }

    /**
     * The bytes of the job's output passed on, by stream ({@code stdout}, {@code stderr}): what the
     * run directory's logs hold ({@code stdout.log}; per node: the nodes' logs together).
     */
    public Builder outputBytes(Map<String, Long> v) {
      outputBytes = new LinkedHashMap<>(v);
      return this;
    }

    /** How many plans the run made ({@link Planner#plan}). */
    public Builder plans(Integer v) {
      plans = v;
      return this;
    }

    public RunSummary build() {
      return new RunSummary(
          SCHEMA,
          job,
          runId,
          runDir,
          outcome,
          exitCode,
          nodes,
          nodesFrom,
          ranks,
          image,
          imageDigest,
          container,
          daemon,
          versions,
          startedAt,
          endedAt,
          durations,
          prepare,
          canary,
          proof,
          leftovers,
          message,
          lostNodes,
          ended,
          outputBytes,
          plans);
    }
  }
}
