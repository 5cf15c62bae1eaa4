package dev.clusterrun.core.bench;

/** The outcome of one benchmark run, as read from its output. Only {@link #PASSED} is a pass. */
public enum Verdict {
  /** The run finished and every check the benchmark makes (residual, validation) passed. */
  PASSED,
  /** The run finished but a check failed (residual FAILED, INVALID, wrong values). */
  FAILED,
  /** The output could not be read as a finished run (truncated, empty, unknown format). */
  PARSE_ERROR;

  public boolean passed() {
    return this == PASSED;
  }
}
