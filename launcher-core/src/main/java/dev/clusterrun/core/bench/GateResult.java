package dev.clusterrun.core.bench;

/**
 * The outcome of comparing a run with a baseline.
 *
 * @param passed whether the run may pass CI
 * @param message for people: says old, new and the change in percent when they exist
 * @param oldValue the baseline's headline value, or null when not comparable
 * @param newValue this run's headline value, or null when it has none
 * @param changePercent (new − old) / old × 100, or null when not comparable
 */
public record GateResult(
    boolean passed, String message, Double oldValue, Double newValue, Double changePercent) {}
