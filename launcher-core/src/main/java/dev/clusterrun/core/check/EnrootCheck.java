package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.oneLine;

/** The {@code enroot} check: enroot is installed and runs. */
final class EnrootCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (!f.enroot().installed()) {
      return fail(
          n,
          "enroot is not in PATH of a non-interactive SSH session (PATH="
              + f.raw().getOrDefault("env.path", "?")
              + ")",
          "install enroot on "
              + n
              + " (in a directory on the PATH sshd gives non-interactive sessions)");
    }
    if (f.enroot().version() == null) {
      String err =
          f.enroot().versionError() == null ? "no output" : f.enroot().versionError().strip();
      boolean runtime = err.contains("mkdir") || err.contains("Permission denied");
      return fail(
          n,
          "`enroot version` failed: " + oneLine(err),
          runtime
              ? "make enroot's paths writable for the job user: run `clusterrun setup` (see runtime-path)"
              : "check the enroot installation on " + n + " (`enroot version` must work)");
    }
    return pass(n, "enroot " + f.enroot().version() + " at " + f.enroot().path());
  }
}
