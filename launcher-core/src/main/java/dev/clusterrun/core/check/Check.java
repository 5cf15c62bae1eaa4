package dev.clusterrun.core.check;

import java.util.List;
import java.util.Map;

/**
 * One check of {@code clusterrun check}, as one unit: its id (for {@code --only}/{@code --skip}),
 * its one-line description (for {@code check --help}), the fact keys it reads (a test holds the
 * fact script to them), its evaluation, and the fix text of every FAIL and WARN it gives. A check
 * is registered once, as a constant of {@link CheckId}; nothing else lists the checks.
 */
public abstract class Check {
  private final String id;
  private final String description;
  private final List<String> facts;

  /**
   * @param facts the keys (or key prefixes, e.g. {@code hook.}) the fact script prints that the
   *     check reads
   */
  Check(String id, String description, String... facts) {
    this.id = id;
    this.description = description;
    this.facts = List.of(facts);
  }

  public final String id() {
    return id;
  }

  public final String description() {
    return description;
  }

  public final List<String> facts() {
    return facts;
  }

  /**
   * The check's results for the nodes it judges, by node. Nodes left out are those it does not
   * judge: a node that did not answer is skipped for it by {@link Checks}.
   */
  abstract Map<String, CheckResult> evaluate(CheckInput in);

  private CheckId self() {
    return CheckId.byId(id).orElseThrow();
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
