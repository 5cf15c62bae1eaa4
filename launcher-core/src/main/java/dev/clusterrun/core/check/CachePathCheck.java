package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.from;
import static dev.clusterrun.core.check.CheckText.oneLine;

import dev.clusterrun.core.enroot.EnrootConfigValue;
import java.util.Optional;

/** The {@code cache-path} check: ENROOT_CACHE_PATH is creatable and writable. */
final class CachePathCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    EnrootConfigValue v = f.enroot().settings().cachePath();
    String n = f.node();
    String fix =
        "run `clusterrun setup` (sets ENROOT_CACHE_PATH to a per-user path), or make it writable"
            + " for "
            + f.account().user();
    Optional<CheckResult> unusable = unusablePath(n, v, fix);
    if (unusable.isPresent()) {
      return unusable.get();
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
