package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.unexpanded;
import static dev.clusterrun.core.check.CheckText.unsetReason;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A check that judges each node that answered on its own facts (and the input around them). */
abstract class NodeCheck extends Check {
  /** The verdict on one node that answered. */
  abstract CheckResult judge(CheckInput in, Facts f);

  /** Whether nodes that did not answer are judged too (only {@code reachable}'s are). */
  boolean judgesUnanswered() {
    return false;
  }

  /**
   * The FAIL of a path setting enroot cannot use as it is: a line with a variable left unexpanded
   * (fixed by fixing that line), or no value at all (fixed by {@code unsetFix}); empty when the
   * setting has a value to judge further.
   */
  final Optional<CheckResult> unusablePath(String node, EnrootConfigValue v, String unsetFix) {
    if (unexpanded(v) != null) {
      return Optional.of(fail(node, unexpanded(v), "fix that line"));
    }
    if (!v.isSet()) {
      return Optional.of(fail(node, unsetReason(v), unsetFix));
    }
    return Optional.empty();
  }

  @Override
  final Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : in.nodes()) {
      Facts f = in.facts().get(n);
      if (f == null) {
        f = Facts.unanswered(n, "not asked", Duration.ZERO);
      }
      if (f.answered() || judgesUnanswered()) {
        out.put(n, judge(in, f));
      }
    }
    return out;
  }
}
