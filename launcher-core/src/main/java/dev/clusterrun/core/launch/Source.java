package dev.clusterrun.core.launch;

/** Where a setting's value came from, in precedence order (first wins). */
public enum Source {
  FLAG("flag"),
  ENVIRONMENT("environment"),
  FILE("file"),
  DEFAULT("default"),
  HOSTFILE("hostfile");

  private final String label;

  Source(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
