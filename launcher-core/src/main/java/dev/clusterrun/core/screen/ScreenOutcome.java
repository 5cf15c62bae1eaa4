package dev.clusterrun.core.screen;

import dev.clusterrun.core.launch.LaunchOutcome;
import java.util.Map;

/**
 * How a screen ended: judged ({@code verdict}), or stopped by a round that could not run ({@code
 * failed}, its launch's outcome, and {@code notRun}, the nodes whose pairs gave no figure, with
 * why).
 */
public record ScreenOutcome(
    int exitCode, ScreenJudge.Verdict verdict, LaunchOutcome failed, Map<String, String> notRun) {
  public ScreenOutcome {
    notRun = notRun == null ? Map.of() : Map.copyOf(notRun);
  }
}
