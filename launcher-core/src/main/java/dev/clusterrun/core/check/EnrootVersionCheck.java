package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.names;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code enroot-version} check: the same enroot version on every node. */
final class EnrootVersionCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, String> versions = answeredValues(in, f -> f.enroot().version());
    Map<String, CheckResult> out = new LinkedHashMap<>();
    String ref = reference(in, versions);
    for (String n : answered(in)) {
      String v = versions.get(n);
      if (v == null) {
        out.put(n, skip(n, "enroot not installed or not runnable"));
      } else if (v.equals(ref)) {
        long others = versions.values().stream().filter(x -> !x.equals(ref)).count();
        out.put(n, pass(n, v + (others == 0 ? " on every node" : "")));
      } else {
        out.put(
            n,
            fail(
                n,
                "enroot " + v + " here, " + ref + " on " + names(nodesWith(versions, ref)),
                "install enroot " + ref + " on " + n + " (one version on every node)"));
      }
    }
    return out;
  }
}
