package dev.clusterrun.core.launch;

/** The canary before a job: none ({@code --no-canary}), first, or alone ({@code --canary}). */
public enum CanaryMode {
  OFF,
  BEFORE,
  ONLY
}
