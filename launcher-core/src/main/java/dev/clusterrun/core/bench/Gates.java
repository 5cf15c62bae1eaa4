package dev.clusterrun.core.bench;

/**
 * What a finished run is held against besides its own verdict: a baseline {@code results.json}
 * (with the allowed drop) and references, on the cluster the run is named after.
 *
 * @param baseline the baseline result, or null
 * @param baselineGate how far the headline may fall below it (null without a baseline)
 * @param references expected values, or null
 * @param cluster the cluster's name, for the references and the results log
 */
public record Gates(
    BenchResult baseline, BaselineGate baselineGate, References references, String cluster) {
  /** Only the run's own verdict counts. */
  public static Gates none(String cluster) {
    return new Gates(null, null, null, cluster);
  }

  /** The run against each gate given; a gate not given is null. */
  public record Judged(GateResult baseline, References.Judgement references) {
    public boolean passed() {
      return (baseline == null || baseline.passed()) && (references == null || references.passed());
    }
  }

  public Judged judge(BenchResult result) {
    return new Judged(
        baselineGate == null || baseline == null ? null : baselineGate.check(result, baseline),
        references == null ? null : references.judge(cluster, result));
  }
}
