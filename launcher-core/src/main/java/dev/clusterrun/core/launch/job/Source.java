package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.EnumWords;

/** Where a setting's value came from, in precedence order (first wins). */
public enum Source {
  FLAG,
  ENVIRONMENT,
  FILE,
  DEFAULT,
  HOSTFILE;

  /** {@code flag}, {@code environment}, … */
  public String label() {
    return EnumWords.word(this);
  }
}
