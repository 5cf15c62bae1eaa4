package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A check that compares the nodes that answered with each other. */
abstract class ClusterCheck extends Check {
  /**
   * What the nodes that answered have of one value, and the one most of them have.
   *
   * @param byNode the value of every node that answered where it is not null, in node order
   * @param reference the most common value; on a tie, the head's (if in the tie), else the first
   *     node's in order; null when no node has one
   */
  record Majority<T>(Map<String, T> byNode, T reference) {
    /** The nodes with the reference value, in node order. */
    List<String> nodes() {
      return nodesWith(byNode, reference);
    }

    /** Whether every node with a value has the reference. */
    boolean unanimous() {
      return nodes().size() == byNode.size();
    }
  }

  /** {@code get} of every node that answered, and the value most of them have. */
  static <T> Majority<T> majority(CheckInput in, Function<Facts, T> get) {
    Map<String, T> byNode = answeredValues(in, get);
    Map<T, Integer> counts = new LinkedHashMap<>();
    for (T v : byNode.values()) {
      counts.merge(v, 1, Integer::sum);
    }
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    T headValue = byNode.get(in.head());
    if (headValue != null && counts.get(headValue) == max) {
      return new Majority<>(byNode, headValue);
    }
    for (T v : byNode.values()) {
      if (counts.get(v) == max) {
        return new Majority<>(byNode, v);
      }
    }
    return new Majority<>(byNode, null);
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
