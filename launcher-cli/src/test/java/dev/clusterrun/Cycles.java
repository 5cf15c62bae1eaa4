package dev.clusterrun;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cycles of a graph given as who uses whom: its strongly connected components of more than one
 * node (Tarjan's algorithm), each as the sorted names in it. {@code ArchitectureTest} keeps the
 * classes of launch/ free of them.
 */
final class Cycles {
  private final Map<String, Set<String>> uses;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> low = new HashMap<>();
  private final List<String> stack = new ArrayList<>();
  private final Set<String> onStack = new TreeSet<>();
  private final List<Set<String>> found = new ArrayList<>();

  private Cycles(Map<String, Set<String>> uses) {
    this.uses = uses;
  }

  /** The cycles of {@code uses} (a name → the names it uses); empty when there is none. */
  static List<Set<String>> of(Map<String, Set<String>> uses) {
    Cycles c = new Cycles(uses);
    for (String v : uses.keySet()) {
      if (!c.index.containsKey(v)) {
        c.visit(v);
      }
    }
    return c.found;
  }

  private void visit(String v) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.add(v);
    onStack.add(v);
    for (String w : uses.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        visit(w);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.remove(stack.size() - 1);
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        found.add(component);
      }
    }
  }
}
