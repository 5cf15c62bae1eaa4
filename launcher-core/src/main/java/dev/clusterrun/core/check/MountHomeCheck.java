package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import dev.clusterrun.core.spec.Mount;

/** The {@code mount-home} check: ~/.ssh is visible inside the container. */
final class MountHomeCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (in.nodes().size() == 1) {
      return skip(n, "one node: mpirun starts no SSH");
    }
    String via = null;
    EnrootConfigValue mh = f.enroot().settings().mountHome();
    String why;
    String fix;
    if (in.job().mountHome() != null) {
      if (in.job().mountHome()) {
        via = "the job mounts the home directory";
      }
      why = "the job does not mount the home directory";
      fix = "mount the home directory (--container-mount-home, container.mount-home: true)";
    } else {
      if (mh.isSet()) {
        via = "ENROOT_MOUNT_HOME " + mh.value() + " " + from(mh);
      }
      why =
          mh.fromFile() || EnrootConfigValue.ENVIRONMENT.equals(mh.source())
              ? "ENROOT_MOUNT_HOME " + mh.raw() + " " + from(mh)
              : "ENROOT_MOUNT_HOME is unset " + from(mh);
      fix =
          mh.fromFile()
              ? "set ENROOT_MOUNT_HOME yes in " + mh.describeSource()
              : EnrootConfigValue.ENVIRONMENT.equals(mh.source())
                  ? "unset ENROOT_MOUNT_HOME in the environment of "
                      + (f.account().user() != null ? f.account().user() : "the job user")
                  : "run `clusterrun setup` (ENROOT_MOUNT_HOME yes)";
      fix += ", or give --container-mount-home (container.mount-home: true)";
    }
    if (via == null && f.account().home() != null) {
      String ssh = f.account().home() + "/.ssh";
      for (Mount m : in.job().mounts()) {
        String t = m.target().endsWith("/") ? m.target() : m.target() + "/";
        if ((ssh + "/").startsWith(t)) {
          via = "the job mounts " + m;
          break;
        }
      }
    }
    if (via == null) {
      return fail(
          n,
          "no ~/.ssh inside the container: "
              + why
              + ", and no mount of "
              + (f.account().home() == null ? "~" : f.account().home())
              + "/.ssh; SSH from mpirun fails with `Host key verification failed.`",
          fix + ", or mount ~/.ssh");
    }
    if (Boolean.FALSE.equals(f.account().sshDir())) {
      return warn(
          n,
          via + ", but " + f.account().home() + "/.ssh does not exist on " + n,
          "give "
              + f.account().user()
              + " a ~/.ssh with keys and known_hosts on "
              + n
              + " (shared home)");
    }
    return pass(n, via);
  }
}
