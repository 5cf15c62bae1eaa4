package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.oneLine;
import static dev.clusterrun.core.check.CheckText.unexpanded;
import static dev.clusterrun.core.check.CheckText.unsetReason;

import dev.clusterrun.core.enroot.EnrootConfigValue;

/** The {@code cache-path} check: ENROOT_CACHE_PATH is creatable and writable. */
final class CachePathCheck extends NodeCheck {
  CachePathCheck() {
    super(
        "cache-path",
        "ENROOT_CACHE_PATH is creatable and writable",
        "enroot.ENROOT_CACHE_PATH",
        "probe.cache",
        "user");
  }

  @Override
  CheckResult judge(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().settings().cachePath();
    String n = f.node();
    String fix =
        "run `clusterrun setup` (sets ENROOT_CACHE_PATH to a per-user path), or make it writable"
            + " for "
            + f.account().user();
    if (unexpanded(v) != null) {
      return fail(n, unexpanded(v), "fix that line");
    }
    if (!v.isSet()) {
      return fail(n, unsetReason(v), fix);
    }
    if (!f.storage().cache().writable()) {
      return fail(
          n,
          v.value() + " " + from(v) + " is not writable: " + oneLine(f.storage().cache().error()),
          fix);
    }
    return pass(n, v.value() + " " + from(v));
  }
}
