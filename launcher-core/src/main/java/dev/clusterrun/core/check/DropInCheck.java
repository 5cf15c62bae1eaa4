package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code dropin} check: clusterrun's enroot drop-in is installed. */
final class DropInCheck extends SetupFileCheck {
  @Override
  CheckResult judge(ExpectedSetup exp, Facts f) {
    String n = f.node();
    String path = exp.dropInPath();
    Optional<ConfFile> c =
        f.enroot().confFiles().stream()
            .filter(
                x ->
                    x.fileName().equals(exp.dropInFileName())
                        && x.path().contains("enroot.conf.d/"))
            .findFirst();
    if (c.isEmpty()) {
      return warn(
          n, "no " + path + ": `clusterrun setup` has not run here", "run `clusterrun setup`");
    }
    if (exp.dropInSha256() != null && !exp.dropInSha256().equalsIgnoreCase(c.get().sha256())) {
      return warn(
          n,
          path + " differs from what `clusterrun setup` writes",
          "run `clusterrun setup` again (it rewrites the drop-in)");
    }
    // enroot keeps the first value it reads (enroot.conf, then the drop-ins in name order), and the
    // environment over all: a setting of the drop-in can be silently overridden.
    List<String> shadowed = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    for (var e : c.get().sets().entrySet()) {
      EnrootConfigValue v =
          f.enroot().settings().all().stream()
              .filter(x -> x.name().equals(e.getKey()))
              .findFirst()
              .orElse(null);
      if (v == null || v.source() == null || v.source().equals(c.get().path())) {
        continue;
      }
      if (v.fromFile()) {
        shadowed.add(
            e.getKey()
                + " (line "
                + e.getValue()
                + ") is overridden by "
                + v.describeSource()
                + ", which enroot reads first (the first value wins)");
        fixes.add("remove " + e.getKey() + " from " + v.describeSource());
      } else if (EnrootConfigValue.ENVIRONMENT.equals(v.source())) {
        shadowed.add(e.getKey() + " (line " + e.getValue() + ") is overridden by the environment");
        fixes.add(
            "unset "
                + e.getKey()
                + " in the environment of "
                + (f.account().user() != null ? f.account().user() : "the job user"));
      }
    }
    if (!shadowed.isEmpty()) {
      return warn(
          n,
          path + ": " + String.join("; ", shadowed),
          String.join("; ", fixes) + " (or keep it, on purpose)");
    }
    return pass(n, path);
  }
}
