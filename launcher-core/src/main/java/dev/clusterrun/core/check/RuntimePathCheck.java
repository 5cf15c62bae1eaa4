package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.oneLine;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.util.Optional;

/** The {@code runtime-path} check: ENROOT_RUNTIME_PATH is creatable and writable. */
final class RuntimePathCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().settings().runtimePath();
    String n = f.node();
    String fix = "run `clusterrun setup` (sets ENROOT_RUNTIME_PATH to a per-user path)";
    Optional<CheckResult> unusable = unusablePath(n, v, fix);
    if (unusable.isPresent()) {
      return unusable.get();
    }
    if (EnrootConfigValue.ENVIRONMENT.equals(v.source())) {
      // Setup cannot help: the environment overrides every configuration file.
      fix =
          "unset ENROOT_RUNTIME_PATH in the environment of "
              + f.account().user()
              + " on "
              + n
              + " (it overrides enroot's configuration), or point it to a directory "
              + f.account().user()
              + " can create";
    } else if (!EnrootConfigValue.DEFAULT.equals(v.source())) {
      // Set by a file (clusterrun's drop-in or another): setup again would change nothing.
      fix =
          "make "
              + v.value()
              + " creatable by "
              + f.account().user()
              + " on "
              + n
              + ", or set another ENROOT_RUNTIME_PATH in "
              + v.describeSource();
    }
    boolean fallback =
        EnrootConfigValue.DEFAULT.equals(v.source())
            && (f.account().xdgRuntimeDir() == null || f.account().xdgRuntimeDir().isEmpty());
    if (!f.storage().runtime().writable()) {
      return fail(
          n,
          v.value()
              + " "
              + from(v)
              + " is not writable: "
              + oneLine(f.storage().runtime().error())
              + (fallback
                  ? " (no XDG_RUNTIME_DIR in a non-interactive SSH session, so enroot uses /run/enroot)"
                  : ""),
          fix);
    }
    if (fallback && f.account().uid() != null && f.account().uid() != 0) {
      return warn(
          n,
          v.value()
              + " "
              + from(v)
              + " works here only because it exists already (no XDG_RUNTIME_DIR over SSH); nodes"
              + " without it fail",
          fix);
    }
    return pass(n, v.value() + " " + from(v));
  }
}
