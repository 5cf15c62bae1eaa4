package dev.clusterrun.core.check;

import java.util.LinkedHashMap;
import java.util.Map;

/** A check that judges each node that answered on its own facts (and the input around them). */
abstract class NodeCheck extends Check {
  NodeCheck(String id, String description, String... facts) {
    super(id, description, facts);
  }

  /** The verdict on one node that answered. */
  abstract CheckResult judge(CheckInput in, Facts f);

  /** Whether nodes that did not answer are judged too (only {@code reachable}'s are). */
  boolean judgesUnanswered() {
    return false;
  }

  @Override
  final Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null) {
        f = Facts.unanswered(n, "not asked", java.time.Duration.ZERO);
      }
      if (f.answered() || judgesUnanswered()) {
        out.put(n, judge(in, f));
      }
    }
    return out;
  }
}
