package dev.clusterrun.core.check;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * All results of one {@code clusterrun check}: every selected check on every node, the facts they
 * were drawn from, and timings. Renders itself as a table for people or JSON for machines (core
 * returns the text; the CLI prints it).
 *
 * @param nodes nodes in report order
 * @param checks the selected checks, in column order
 * @param results one result per node and selected check
 * @param proofCleanupProblem why the shared-path probe directory could not be removed, or null
 */
public record CheckReport(
    List<String> nodes,
    String head,
    List<CheckId> checks,
    List<CheckResult> results,
    Map<String, Facts> facts,
    Timings timings,
    String proofCleanupProblem) {

  /**
   * @param total the whole run
   * @param facts gathering facts from all nodes (the slowest node)
   * @param proof the shared-path proof, zero when not run
   * @param ssh the head's SSH probe, zero when not run
   */
  public record Timings(Duration total, Duration facts, Duration proof, Duration ssh) {
    public static final Timings ZERO =
        new Timings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
  }

  public CheckReport {
    nodes = List.copyOf(nodes);
    checks = List.copyOf(checks);
    results = List.copyOf(results);
    facts = Map.copyOf(facts);
    timings = timings == null ? Timings.ZERO : timings;
  }

  /** True when no check failed (warnings and skips do not fail a check run). */
  public boolean passed() {
    return count(CheckStatus.FAIL) == 0;
  }

  public long count(CheckStatus s) {
    return results.stream().filter(r -> r.status() == s).count();
  }

  public Optional<CheckResult> result(String node, CheckId check) {
    return results.stream().filter(r -> r.node().equals(node) && r.check() == check).findFirst();
  }

  /** Node × check table with ✓ ✗ ! –, then the reasons and fixes of failures and warnings. */
  public String renderTable() {
    return CheckTable.render(this);
  }

  /** Every node and every check with status, reason, fix, a facts summary and timings. */
  public String renderJson() {
    return CheckJson.render(this);
  }
}
