package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates the registered checks ({@link CheckId}): pure functions over {@link Facts}, the
 * shared-path proof and the head's SSH probe. Every FAIL and WARN carries a one-line fix.
 */
public final class Checks {
  private Checks() {}

  /** All selected checks for all nodes, node by node in {@code in.nodes()} order. */
  public static List<CheckResult> evaluate(CheckInput in, CheckSelection selection) {
    Map<CheckId, Map<String, CheckResult>> byCheck = new LinkedHashMap<>();
    for (CheckId id : CheckId.values()) {
      if (selection.includes(id)) {
        byCheck.put(id, evaluate(in, id));
      }
    }
    List<CheckResult> out = new ArrayList<>();
    for (String n : in.nodes()) {
      for (Map<String, CheckResult> m : byCheck.values()) {
        CheckResult r = m.get(n);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  /** One check for every node; a node that did not answer is skipped (but for reachable). */
  public static Map<String, CheckResult> evaluate(CheckInput in, CheckId id) {
    Map<String, CheckResult> judged = id.check().evaluate(in);
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : in.nodes()) {
      CheckResult r = judged.get(n);
      if (r == null) {
        Facts f = in.facts().get(n);
        r =
            f == null || !f.answered()
                ? CheckResult.skip(n, id, "the node did not answer")
                : CheckResult.skip(n, id, "not evaluated");
      }
      out.put(n, r);
    }
    return out;
  }
}
