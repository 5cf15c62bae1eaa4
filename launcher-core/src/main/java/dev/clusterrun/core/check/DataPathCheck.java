package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.fsText;
import static dev.clusterrun.core.check.CheckText.mountHomeEffective;
import static dev.clusterrun.core.check.CheckText.oneLine;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.util.Optional;

/** The {@code data-path} check: ENROOT_DATA_PATH is writable, not inside a mounted home. */
final class DataPathCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().settings().dataPath();
    String n = f.node();
    Optional<CheckResult> unusable =
        unusablePath(
            n, v, "set ENROOT_DATA_PATH to a directory on shared storage (clusterrun setup)");
    if (unusable.isPresent()) {
      return unusable.get();
    }
    String fs = fsText(f);
    if (!f.storage().data().writable()) {
      return fail(
          n,
          v.value()
              + " "
              + from(v)
              + fs
              + " is not writable: "
              + oneLine(f.storage().data().error()),
          "make "
              + v.value()
              + " writable for "
              + f.account().user()
              + ", or set ENROOT_DATA_PATH elsewhere");
    }
    if (f.dataInHome() && mountHomeEffective(in, f)) {
      return warn(
          n,
          v.value()
              + " "
              + from(v)
              + fs
              + " lies inside "
              + f.account().home()
              + ", which enroot mounts into the container: starts can fail with `enroot-mount:"
              + " ... Invalid argument`",
          "move ENROOT_DATA_PATH out of the home directory (e.g. /shared/enroot/data-$(id -u))");
    }
    return pass(n, v.value() + " " + from(v) + fs);
  }
}
