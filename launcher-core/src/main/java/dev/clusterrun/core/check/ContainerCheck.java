package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.names;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code container} check: the job's named container exists on every node. */
final class ContainerCheck extends ClusterCheck {
  @Override
  public Map<String, CheckResult> evaluate(CheckInput in) {
    String name = in.job().containerName();
    Map<String, CheckResult> out = new LinkedHashMap<>();
    Map<String, Boolean> present =
        answeredValues(in, f -> name == null ? null : f.enroot().containers().get(name));
    List<String> have = nodesWith(present, Boolean.TRUE);
    for (String n : answered(in)) {
      Facts f = in.facts().get(n);
      if (name == null) {
        out.put(n, skip(n, "the job names no container"));
      } else if (Boolean.TRUE.equals(present.get(n))) {
        out.put(n, pass(n, name + " in " + f.storage().dataPath()));
      } else if (have.isEmpty()) {
        out.put(n, skip(n, name + " not created yet; `clusterrun run` creates it from the image"));
      } else {
        out.put(
            n,
            fail(
                n,
                name
                    + " is not in "
                    + f.storage().dataPath()
                    + " "
                    + from(f.enroot().settings().dataPath())
                    + " here, but exists on "
                    + names(have)
                    + ": the data path is not shared",
                "share ENROOT_DATA_PATH between all nodes (see data-path-shared), then `clusterrun run` finds "
                    + name
                    + " everywhere"));
      }
    }
    return out;
  }
}
