package dev.clusterrun.core.check;

/**
 * A check of a file {@code clusterrun setup} installs on each node (its hook, its drop-in), judged
 * against what this clusterrun's setup writes.
 */
abstract class SetupFileCheck extends NodeCheck {
  @Override
  final CheckResult judge(CheckInput in, Facts f) {
    return judge(in.expected(), f);
  }

  /** The verdict on one node that answered, against {@code exp}: what setup installs. */
  abstract CheckResult judge(ExpectedSetup exp, Facts f);
}
