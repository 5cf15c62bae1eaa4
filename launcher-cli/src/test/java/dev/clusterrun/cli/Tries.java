package dev.clusterrun.cli;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Runs a property over generated values: a fixed seed and a bounded number of tries in CI, and on
 * request as long and as random as wanted (see {@code docs/reliability.md}):
 *
 * <pre>
 * mvn -B -pl launcher-cli -am test -Dtest='Hostile*Test' -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dhostile.tries=100000 -Dhostile.seed=random
 * </pre>
 *
 * Try {@code i} draws from {@code new Random(seed + i)}: a failure names the seed of its own try,
 * and {@code -Dhostile.seed=THAT -Dhostile.tries=1} replays exactly that try.
 */
final class Tries {
  /** The seed CI runs with: every run tries the same inputs. */
  static final long SEED = 20261204L;

  private Tries() {}

  static long seed() {
    String s = System.getProperty("hostile.seed", "").strip();
    if (s.isEmpty()) {
      return SEED;
    }
    if (s.equalsIgnoreCase("random")) {
      return new SecureRandom().nextLong();
    }
    return Long.parseLong(s);
  }

  /** {@code -Dhostile.tries=N}, else {@code dflt}. */
  static int count(int dflt) {
    String s = System.getProperty("hostile.tries", "").strip();
    return s.isEmpty() ? dflt : Integer.parseInt(s);
  }

  /**
   * Runs {@code property} on {@code tries} generated values; stops at the first failure with the
   * value, its try's seed and how to replay it. Returns how often each label was seen (the property
   * labels its outcome through the second argument).
   */
  static <T> Map<String, Integer> check(
      String name, int tries, Gen<T> gen, BiConsumer<T, Map<String, Integer>> property) {
    long seed = seed();
    int n = count(tries);
    Map<String, Integer> labels = new TreeMap<>();
    // -Dhostile.keepGoing=true: go on after a failure and list one example of each kind.
    boolean keepGoing = Boolean.getBoolean("hostile.keepGoing");
    Map<String, String> failures = new java.util.LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      long trySeed = seed + i;
      T value = gen.next(new Random(trySeed));
      try {
        property.accept(value, labels);
      } catch (AssertionError | RuntimeException e) {
        if (keepGoing) {
          String m = String.valueOf(e.getMessage());
          String kind = m.replaceAll("(?s)for .*", "").replaceAll("'.*?'", "'…'");
          kind = kind.length() > 120 ? kind.substring(0, 120) : kind;
          failures.putIfAbsent(
              kind, "seed " + trySeed + ": " + value + "\n    " + m.replace("\n", "\n    "));
          continue;
        }
        throw new AssertionError(
            name
                + ": try "
                + i
                + " of "
                + n
                + " failed; replay it with -Dhostile.seed="
                + trySeed
                + " -Dhostile.tries=1\n  value: "
                + value
                + "\n  "
                + e.getMessage(),
            e);
      }
    }
    if (!failures.isEmpty()) {
      StringBuilder f = new StringBuilder(name + ": " + failures.size() + " kinds of failure\n");
      failures.values().forEach(v -> f.append("- ").append(v).append("\n"));
      try {
        java.nio.file.Path out = java.nio.file.Path.of("target", "hostile-failures.txt");
        java.nio.file.Files.writeString(
            out, HostileStrings.visible(f.toString(), Integer.MAX_VALUE));
        throw new AssertionError(
            failures.size() + " kinds of failure, listed in " + out.toAbsolutePath());
      } catch (java.io.IOException e) {
        throw new AssertionError(f.toString(), e);
      }
    }
    StringBuilder b = new StringBuilder(name + ": " + n + " tries from seed " + seed + "\n");
    labels.forEach((k, v) -> b.append(String.format("  %5d  %s%n", v, k)));
    System.out.print(b);
    return labels;
  }
}
