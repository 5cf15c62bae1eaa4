package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A check that compares the nodes that answered with each other. */
abstract class ClusterCheck extends Check {
  /**
   * The reference value among nodes: the most common one; on a tie, the head's (if in the tie),
   * else the first node's in order.
   */
  static <T> T reference(CheckInput in, Map<String, T> byNode) {
    Map<T, Integer> counts = new LinkedHashMap<>();
    for (T v : byNode.values()) {
      counts.merge(v, 1, Integer::sum);
    }
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    T headValue = byNode.get(in.head());
    if (headValue != null && counts.get(headValue) == max) {
      return headValue;
    }
    for (T v : byNode.values()) {
      if (counts.get(v) == max) {
        return v;
      }
    }
    return null;
  }

  /** The nodes that answered, in node order: the ones a cluster check judges. */
  static List<String> answered(CheckInput in) {
    return in.nodes().stream()
        .filter(
            n -> {
              Facts f = in.facts().get(n);
              return f != null && f.answered();
            })
        .toList();
  }

  /** {@code get} of every node that answered, where it is not null, in node order. */
  static <T> Map<String, T> answeredValues(CheckInput in, Function<Facts, T> get) {
    Map<String, T> m = new LinkedHashMap<>();
    for (String n : answered(in)) {
      T v = get.apply(in.facts().get(n));
      if (v != null) {
        m.put(n, v);
      }
    }
    return m;
  }

  static List<String> nodesWith(Map<String, ?> m, Object value) {
    List<String> out = new ArrayList<>();
    m.forEach(
        (k, v) -> {
          if (v.equals(value)) {
            out.add(k);
          }
        });
    return out;
  }
}
