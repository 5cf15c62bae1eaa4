package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.fsText;
import static dev.clusterrun.core.check.CheckText.mountHomeEffective;
import static dev.clusterrun.core.check.CheckText.oneLine;
import static dev.clusterrun.core.check.CheckText.unexpanded;
import static dev.clusterrun.core.check.CheckText.unsetReason;

import dev.clusterrun.core.enroot.EnrootConfigValue;

/** The {@code data-path} check: ENROOT_DATA_PATH is writable, not inside a mounted home. */
final class DataPathCheck extends NodeCheck {
  DataPathCheck() {
    super(
        "data-path",
        "ENROOT_DATA_PATH is writable, not inside a mounted home",
        "enroot.ENROOT_DATA_PATH",
        "probe.data",
        "data.real",
        "data.fstype",
        "data.mountpoint",
        "home",
        "home.real",
        "enroot.ENROOT_MOUNT_HOME",
        "user");
  }

  @Override
  CheckResult judge(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().settings().dataPath();
    String n = f.node();
    if (unexpanded(v) != null) {
      return fail(n, unexpanded(v), "fix that line");
    }
    if (!v.isSet()) {
      return fail(
          n,
          unsetReason(v),
          "set ENROOT_DATA_PATH to a directory on shared storage (clusterrun setup)");
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
