package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.seconds;

import java.util.Locale;

/** The {@code reachable} check: the node answers over SSH as the job user. */
final class ReachableCheck extends NodeCheck {
  @Override
  boolean judgesUnanswered() {
    return true;
  }

  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (f.answered()) {
      return pass(
          n,
          String.format(Locale.ROOT, "answered in %.2f s as %s", seconds(f), f.account().user()));
    }
    return fail(
        n,
        f.problem(),
        "make `ssh "
            + n
            + " true` work from this machine as the job user (name, key, known_hosts)");
  }
}
