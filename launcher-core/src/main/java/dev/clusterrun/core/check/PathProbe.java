package dev.clusterrun.core.check;

/** Whether a path is creatable and writable by the job user, and the exact error if not. */
public record PathProbe(String path, boolean writable, String error) {}
