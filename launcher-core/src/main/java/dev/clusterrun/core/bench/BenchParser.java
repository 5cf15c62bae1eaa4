package dev.clusterrun.core.bench;

/**
 * Reads one benchmark's output. Never throws on bad output: what cannot be read comes back as a
 * {@link Verdict#PARSE_ERROR} result with the reason, and nothing unverified is ever {@link
 * Verdict#PASSED}.
 */
@FunctionalInterface
public interface BenchParser {
  BenchResult parse(String output);
}
