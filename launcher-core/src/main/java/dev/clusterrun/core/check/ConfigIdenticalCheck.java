package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.names;
import static dev.clusterrun.core.check.CheckText.shortSha;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The {@code config-identical} check: enroot's configuration files are identical everywhere. */
final class ConfigIdenticalCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    Majority<String> prints = majority(in, f -> f.enroot().configFingerprint());
    Map<String, CheckResult> out = new LinkedHashMap<>();
    List<String> refNodes = prints.nodes();
    Facts refFacts =
        refNodes.isEmpty()
            ? null
            : in.facts().get(refNodes.contains(in.head()) ? in.head() : refNodes.get(0));
    for (String n : prints.byNode().keySet()) {
      Facts f = in.facts().get(n);
      String files =
          f.enroot().confFiles().size() + " file" + (f.enroot().confFiles().size() == 1 ? "" : "s");
      if (prints.byNode().get(n).equals(prints.reference())) {
        out.put(
            n,
            pass(
                n,
                prints.unanimous()
                    ? files + ", identical on every node"
                    : files + ", as on " + names(refNodes)));
        continue;
      }
      out.put(
          n,
          fail(
              n,
              "enroot configuration differs from "
                  + names(refNodes)
                  + ": "
                  + configDiff(refFacts, f),
              "make "
                  + f.enroot().sysconfDir()
                  + "/enroot.conf and enroot.conf.d/ on "
                  + n
                  + " the same as on "
                  + refFacts.node()
                  + " (`clusterrun setup` on every node)"));
    }
    return out;
  }

  private static String configDiff(Facts ref, Facts f) {
    Map<String, String> a = new LinkedHashMap<>();
    for (ConfFile c : ref.enroot().confFiles()) {
      a.put(ref.enroot().relativeConfName(c), c.sha256());
    }
    Map<String, String> b = new LinkedHashMap<>();
    for (ConfFile c : f.enroot().confFiles()) {
      b.put(f.enroot().relativeConfName(c), c.sha256());
    }
    List<String> parts = new ArrayList<>();
    for (var e : a.entrySet()) {
      if (!b.containsKey(e.getKey())) {
        parts.add(e.getKey() + " missing here");
      } else if (!Objects.equals(e.getValue(), b.get(e.getKey()))) {
        parts.add(
            e.getKey()
                + " differs (sha256 "
                + shortSha(b.get(e.getKey()))
                + " here, "
                + shortSha(e.getValue())
                + " there)");
      }
    }
    for (String k : b.keySet()) {
      if (!a.containsKey(k)) {
        parts.add(k + " only here");
      }
    }
    if (parts.isEmpty()) {
      parts.add("files read in another order");
    }
    return String.join("; ", parts);
  }
}
