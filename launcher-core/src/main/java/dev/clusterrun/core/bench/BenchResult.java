package dev.clusterrun.core.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one benchmark run produced: the verdict, the headline number and the details an operator
 * looks at, plus where and when it ran. Parsers fill the first part; the command that ran the job
 * adds the run context with {@link #withRun}. Field names are the JSON names of {@code
 * results.json} (see {@link ResultsJson}); do not rename them.
 *
 * @param preset preset name ({@code hpl}, {@code hpcc}, …)
 * @param verdict PASSED, FAILED or PARSE_ERROR
 * @param reason why it is not PASSED (null when PASSED)
 * @param headline the number to compare runs by (HPL Gflops, STREAM Triad, busbw …); null when the
 *     output held none
 * @param perGpu the headline divided per GPU when the benchmark reports it (NVIDIA HPL, HPL-MxP)
 * @param n HPL problem size N (HPL, HPL-MxP, hpcc)
 * @param nb HPL block size NB
 * @param p process grid rows P
 * @param q process grid columns Q
 * @param timeSeconds the benchmark's own timing of the headline run
 * @param residual the scaled residual of the headline run
 * @param testsPassed HPL's "N tests completed and passed residual checks"
 * @param testsFailed HPL's "N tests completed and failed residual checks"
 * @param testsSkipped HPL's "N tests skipped because of illegal input values"
 * @param rows every HPL result row, in output order (empty for other benchmarks)
 * @param metrics further numbers by name, sorted by name
 * @param nodes host names the run used, in hostfile order
 * @param ranks MPI ranks
 * @param gpus GPUs used in total
 * @param image the container image
 * @param startTime when the run started
 * @param endTime when the run ended
 * @param cluster the cluster's name ({@code --cluster}, or the hostfile's name): what references
 *     and reports group runs by
 * @param runId the run's id
 * @param runDir the run directory (host path)
 */
public record BenchResult(
    String preset,
    Verdict verdict,
    String reason,
    Metric headline,
    Double perGpu,
    Long n,
    Integer nb,
    Integer p,
    Integer q,
    Double timeSeconds,
    Double residual,
    Integer testsPassed,
    Integer testsFailed,
    Integer testsSkipped,
    List<HplRow> rows,
    Map<String, Double> metrics,
    List<String> nodes,
    Integer ranks,
    Integer gpus,
    String image,
    Instant startTime,
    Instant endTime,
    String cluster,
    String runId,
    String runDir) {

  public BenchResult {
    Objects.requireNonNull(preset, "preset");
    Objects.requireNonNull(verdict, "verdict");
    if (verdict != Verdict.PASSED && (reason == null || reason.isBlank())) {
      throw new IllegalArgumentException("a " + verdict + " result needs a 'reason'");
    }
    rows = rows == null ? List.of() : List.copyOf(rows);
    metrics = metrics == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(metrics));
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
  }

  /** A result for output that could not be read; never a pass. */
  public static BenchResult parseError(String preset, String reason) {
    return builder(preset).parseError(reason);
  }

  /** The same result with where and when it ran. */
  public BenchResult withRun(
      List<String> nodes,
      Integer ranks,
      Integer gpus,
      String image,
      Instant startTime,
      Instant endTime) {
    return toBuilder()
        .nodes(nodes)
        .ranks(ranks)
        .gpus(gpus)
        .image(image)
        .startTime(startTime)
        .endTime(endTime)
        .build();
  }

  /** The same result with the cluster it ran on and its run. */
  public BenchResult withOrigin(String cluster, String runId, String runDir) {
    return toBuilder().cluster(cluster).runId(runId).runDir(runDir).build();
  }

  public boolean passed() {
    return verdict == Verdict.PASSED;
  }

  public static Builder builder(String preset) {
    return new Builder(preset);
  }

  public Builder toBuilder() {
    Builder b = new Builder(preset);
    b.verdict = verdict;
    b.reason = reason;
    b.headline = headline;
    b.perGpu = perGpu;
    b.n = n;
    b.nb = nb;
    b.p = p;
    b.q = q;
    b.timeSeconds = timeSeconds;
    b.residual = residual;
    b.testsPassed = testsPassed;
    b.testsFailed = testsFailed;
    b.testsSkipped = testsSkipped;
    b.rows = new ArrayList<>(rows);
    b.metrics = new TreeMap<>(metrics);
    b.nodes = nodes;
    b.ranks = ranks;
    b.gpus = gpus;
    b.image = image;
    b.startTime = startTime;
    b.endTime = endTime;
    b.cluster = cluster;
    b.runId = runId;
    b.runDir = runDir;
    return b;
  }

  /** Fills a result field by field; parsers use it. */
  public static final class Builder {
    private final String preset;
    private Verdict verdict = Verdict.PARSE_ERROR;
    private String reason;
    private Metric headline;
    private Double perGpu;
    private Long n;
    private Integer nb;
    private Integer p;
    private Integer q;
    private Double timeSeconds;
    private Double residual;
    private Integer testsPassed;
    private Integer testsFailed;
    private Integer testsSkipped;
    private List<HplRow> rows = new ArrayList<>();
    private Map<String, Double> metrics = new TreeMap<>();
    private List<String> nodes = List.of();
    private Integer ranks;
    private Integer gpus;
    private String image;
    private Instant startTime;
    private Instant endTime;
    private String cluster;
    private String runId;
    private String runDir;

    private Builder(String preset) {
      this.preset = preset;
    }

    public Builder verdict(Verdict v) {
      this.verdict = v;
      return this;
    }

    /** The result, {@link Verdict#FAILED} for {@code why}. */
    public BenchResult failed(String why) {
      return verdict(Verdict.FAILED).reason(why).build();
    }

    /** The result, a {@link Verdict#PARSE_ERROR} for {@code why}. */
    public BenchResult parseError(String why) {
      return verdict(Verdict.PARSE_ERROR).reason(why).build();
    }

    public Builder reason(String r) {
      this.reason = r;
      return this;
    }

    public Builder headline(Metric m) {
      this.headline = m;
      return this;
    }

    public Builder perGpu(Double v) {
      this.perGpu = v;
      return this;
    }

    public Builder n(Long v) {
      this.n = v;
      return this;
    }

    public Builder nb(Integer v) {
      this.nb = v;
      return this;
    }

    public Builder grid(Integer rows, Integer cols) {
      this.p = rows;
      this.q = cols;
      return this;
    }

    public Builder timeSeconds(Double v) {
      this.timeSeconds = v;
      return this;
    }

    public Builder residual(Double v) {
      this.residual = v;
      return this;
    }

    public Builder counts(Integer passed, Integer failed, Integer skipped) {
      this.testsPassed = passed;
      this.testsFailed = failed;
      this.testsSkipped = skipped;
      return this;
    }

    public Builder rows(List<HplRow> r) {
      this.rows = new ArrayList<>(r);
      return this;
    }

    public Builder metric(String name, double value) {
      this.metrics.put(name, value);
      return this;
    }

    public Builder metrics(Map<String, Double> m) {
      this.metrics.putAll(m);
      return this;
    }

    public Builder nodes(List<String> v) {
      this.nodes = v;
      return this;
    }

    public Builder ranks(Integer v) {
      this.ranks = v;
      return this;
    }

    public Builder gpus(Integer v) {
      this.gpus = v;
      return this;
    }

    public Builder image(String v) {
      this.image = v;
      return this;
    }

    public Builder startTime(Instant v) {
      this.startTime = v;
      return this;
    }

    public Builder endTime(Instant v) {
      this.endTime = v;
      return this;
    }

    public Builder cluster(String v) {
      this.cluster = v;
      return this;
    }

    public Builder runId(String v) {
      this.runId = v;
      return this;
    }

    public Builder runDir(String v) {
      this.runDir = v;
      return this;
    }

    public BenchResult build() {
      return new BenchResult(
          preset,
          verdict,
          verdict == Verdict.PASSED ? null : reason,
          headline,
          perGpu,
          n,
          nb,
          p,
          q,
          timeSeconds,
          residual,
          testsPassed,
          testsFailed,
          testsSkipped,
          rows,
          metrics,
          nodes,
          ranks,
          gpus,
          image,
          startTime,
          endTime,
          cluster,
          runId,
          runDir);
    }
  }
}
