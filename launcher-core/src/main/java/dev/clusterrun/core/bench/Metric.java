package dev.clusterrun.core.bench;

/**
 * One number with its name and unit, e.g. {@code HPL 9.78 Gflops}.
 *
 * @param name what was measured ({@code HPL}, {@code Triad}, {@code busbw})
 * @param value the measured value
 * @param unit the unit as the benchmark reports it ({@code Gflops}, {@code MB/s}, {@code GB/s})
 */
public record Metric(String name, double value, String unit) {
  public Metric {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("metric without a name");
    }
    if (unit == null) {
      unit = "";
    }
  }
}
