package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.names;
import static dev.clusterrun.core.check.CheckText.shortName;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code hostname-unique} check: every node has its own hostname. */
final class HostnameUniqueCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    Map<String, String> shortNames =
        answeredValues(
            in,
            f ->
                f.host().hostname() == null || f.host().hostname().isEmpty()
                    ? null
                    : shortName(f.host().hostname()));
    Map<String, CheckResult> out = new LinkedHashMap<>();
    for (String n : answered(in)) {
      Facts f = in.facts().get(n);
      String s = shortNames.get(n);
      if (s == null) {
        out.put(n, skip(n, "hostname unknown"));
        continue;
      }
      List<String> same = nodesWith(shortNames, s);
      same.remove(n);
      if (same.isEmpty()) {
        out.put(n, pass(n, f.host().hostname()));
      } else {
        out.put(
            n,
            fail(
                n,
                "hostname '"
                    + f.host().hostname()
                    + "' is also the hostname of "
                    + names(same)
                    + ": Open MPI takes them for one host (shared memory between them)",
                "give " + n + " its own hostname (hostnamectl set-hostname NAME)"));
      }
    }
    return out;
  }
}
