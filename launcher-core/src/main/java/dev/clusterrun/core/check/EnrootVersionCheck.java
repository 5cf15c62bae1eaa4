package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.names;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code enroot-version} check: the same enroot version on every node. */
final class EnrootVersionCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    Majority<String> versions = majority(in, f -> f.enroot().version());
    Map<String, CheckResult> out = new LinkedHashMap<>();
    String ref = versions.reference();
    for (String n : answered(in)) {
      String v = versions.byNode().get(n);
      if (v == null) {
        out.put(n, skip(n, "enroot not installed or not runnable"));
      } else if (v.equals(ref)) {
        out.put(n, pass(n, v + (versions.unanimous() ? " on every node" : "")));
      } else {
        out.put(
            n,
            fail(
                n,
                "enroot " + v + " here, " + ref + " on " + names(versions.nodes()),
                "install enroot " + ref + " on " + n + " (one version on every node)"));
      }
    }
    return out;
  }
}
