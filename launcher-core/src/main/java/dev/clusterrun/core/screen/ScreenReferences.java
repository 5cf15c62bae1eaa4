package dev.clusterrun.core.screen;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.References;
import dev.clusterrun.core.screen.ScreenJudge.Expected;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code screen --references FILE}: the figures an operator expects of every node and pair, from
 * the references file {@code bench} and {@code results} read, under preset {@code screen}:
 *
 * <pre>
 * clusters:
 *   gpu-a:                     # --cluster NAME, or the hostfile's name; '*' for any cluster
 *     screen:
 *       - metrics:             # size keys are optional; nodes: N holds for screens of N nodes
 *           compute: {value: 40, lower: -15%, unit: Gflop/s}
 *           bandwidth: {value: 11000, lower: -10%, unit: MB/s}
 *           latency: {value: 3.5, upper: +30%, unit: us}
 * </pre>
 *
 * <p>A metric is named by its label (compute, memory, bandwidth, latency) or its name in the
 * results log (dgemm_Gflops, triad_MBps, bandwidth_MBps, latency_usec). The side of the bounds that
 * matters is the bad one ({@code lower} for compute, memory and bandwidth, {@code upper} for
 * latency); when the file leaves it out, the metric's {@code --tolerance} holds.
 */
final class ScreenReferences {
  static final String PRESET = "screen";

  private ScreenReferences() {}

  /**
   * The expectations for a screen of {@code nodes} nodes of {@code cluster}, by metric.
   *
   * @throws BadInputException when the file does not read, has no {@code screen} reference that
   *     fits, names a metric the screen does not measure, or gives it in another unit
   */
  static Map<Metric, Expected> read(Path file, String cluster, int nodes) {
    References refs = References.read(file);
    References.Size size = new References.Size(nodes, null, null, null);
    String none = refs.cannotFit(cluster, PRESET, size);
    if (none != null) {
      throw new BadInputException("--references", none);
    }
    References.Entry e = refs.find(cluster, PRESET, size);
    Map<Metric, Expected> out = new EnumMap<>(Metric.class);
    for (References.Bound b : e.metrics().values()) {
      Metric m = Tolerances.metricNamed(b.metric());
      if (m == null) {
        throw new BadInputException(
            b.where(),
            "screen measures no metric '"
                + b.metric()
                + "' (it measures "
                + String.join(", ", Tolerances.labels())
                + ")");
      }
      if (b.unit() != null && !b.unit().equals(m.unit())) {
        throw new BadInputException(
            b.where(), "screen measures " + m.label() + " in " + m.unit() + ", not " + b.unit());
      }
      BigDecimal side = m.higherIsBetter() ? b.lowerPercent() : b.upperPercent();
      Double bar = side == null ? null : Math.abs(side.doubleValue()) / 100;
      out.put(m, new Expected(b.value(), bar, e.label() + " at " + b.where()));
    }
    return out;
  }
}
