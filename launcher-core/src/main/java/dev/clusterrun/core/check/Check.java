package dev.clusterrun.core.check;

import java.util.List;
import java.util.Map;

/**
 * One check of {@code clusterrun check}, as one unit: its evaluation, and the fix text of every
 * FAIL and WARN it gives. Its id (for {@code --only}/{@code --skip}), its one-line description (for
 * {@code check --help}) and the fact keys it reads (a test holds the fact script to them) stand in
 * its row of {@link CheckId}, the one table of the checks; nothing else lists them.
 */
public abstract class Check {
  /** The keys (or key prefixes, e.g. {@code hook.}) the fact script prints that the check reads. */
  public final List<String> facts() {
    return self().facts();
  }

  /**
   * The check's results for the nodes it judges, by node. Nodes left out are those it does not
   * judge: a node that did not answer is skipped for it by {@link Checks}.
   */
  abstract Map<String, CheckResult> evaluate(CheckInput in);

  private CheckId self() {
    return CheckId.of(this);
  }

  final CheckResult pass(String node, String reason) {
    return CheckResult.pass(node, self(), reason);
  }

  final CheckResult fail(String node, String reason, String fix) {
    return CheckResult.fail(node, self(), reason, fix);
  }

  final CheckResult warn(String node, String reason, String fix) {
    return CheckResult.warn(node, self(), reason, fix);
  }

  final CheckResult skip(String node, String reason) {
    return CheckResult.skip(node, self(), reason);
  }
}
