package dev.clusterrun.core.check;

/** Outcome of one check on one node. */
public enum CheckStatus {
  PASS("✓"),
  FAIL("✗"),
  WARN("!"),
  SKIP("–");

  private final String mark;

  CheckStatus(String mark) {
    this.mark = mark;
  }

  /** The one-character mark of the table: ✓ ✗ ! –. */
  public String mark() {
    return mark;
  }
}
