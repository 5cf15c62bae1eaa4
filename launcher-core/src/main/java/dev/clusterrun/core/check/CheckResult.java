package dev.clusterrun.core.check;

/**
 * One check on one node.
 *
 * @param reason what was found, in a few words a person can act on
 * @param fix one line saying what to do; empty unless FAIL or WARN
 */
public record CheckResult(
    String node, CheckId check, CheckStatus status, String reason, String fix) {
  public CheckResult {
    reason = reason == null ? "" : reason;
    fix = fix == null ? "" : fix;
  }

  public static CheckResult pass(String node, CheckId check, String reason) {
    return new CheckResult(node, check, CheckStatus.PASS, reason, "");
  }

  public static CheckResult fail(String node, CheckId check, String reason, String fix) {
    return new CheckResult(node, check, CheckStatus.FAIL, reason, fix);
  }

  public static CheckResult warn(String node, CheckId check, String reason, String fix) {
    return new CheckResult(node, check, CheckStatus.WARN, reason, fix);
  }

  public static CheckResult skip(String node, CheckId check, String reason) {
    return new CheckResult(node, check, CheckStatus.SKIP, reason, "");
  }

  /** The stable id, e.g. {@code runtime-path}. */
  public String checkId() {
    return check.id();
  }
}
