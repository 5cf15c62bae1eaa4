package dev.clusterrun.core.launch;

/** The canary: none (the default; {@code --no-canary} says so), or alone ({@code --canary}). */
public enum CanaryMode {
  OFF,
  ONLY
}
