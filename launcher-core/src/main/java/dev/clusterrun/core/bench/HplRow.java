package dev.clusterrun.core.bench;

/**
 * One result row of HPL ({@code T/V N NB P Q Time Gflops [( per GPU)]}) with the residual check
 * printed under it, when there was one.
 *
 * @param variant the T/V column, e.g. {@code WR11C2R4} or NVIDIA's {@code WC0}
 * @param gflopsPerGpu NVIDIA HPL's per-GPU column, or null for netlib HPL
 * @param residual the scaled residual, or null when no residual line followed the row
 * @param residualPassed whether the residual line said PASSED; null when there was none
 */
public record HplRow(
    String variant,
    long n,
    int nb,
    int p,
    int q,
    double timeSeconds,
    double gflops,
    Double gflopsPerGpu,
    Double residual,
    Boolean residualPassed) {

  HplRow withResidual(Double value, boolean passed) {
    return new HplRow(variant, n, nb, p, q, timeSeconds, gflops, gflopsPerGpu, value, passed);
  }
}
