package dev.clusterrun.core.launch;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanRenderer;

/**
 * How a {@code clusterrun plan} ended: the plan as it is shown, text for people or JSON ({@code
 * --json}). It touched no node; a plan that cannot be made is bad input, not an outcome.
 *
 * @param stdout what goes to stdout
 */
public record PlanOutcome(String stdout) {
  static PlanOutcome of(Plan plan, boolean json) {
    return new PlanOutcome(json ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
  }

  /** The exit code of {@code plan} once the plan is shown: 0. */
  public int exitCode() {
    return ExitCode.OK.value();
  }
}
