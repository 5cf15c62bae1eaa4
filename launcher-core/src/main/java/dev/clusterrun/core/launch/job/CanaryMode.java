package dev.clusterrun.core.launch.job;

/** The canary: none (the default; {@code --no-canary} says so), or alone ({@code --canary}). */
public enum CanaryMode {
  OFF,
  ONLY
}
