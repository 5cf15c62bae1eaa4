package dev.clusterrun.core.screen;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.JobInput;
import dev.clusterrun.core.launch.LaunchOptions;
import java.nio.file.Path;

/**
 * One {@code clusterrun screen}.
 *
 * @param input the hostfile, the container flags (no command: the screen makes it), the environment
 * @param tolerance how far a figure may be off its reference, as a fraction (0.10 for 10 %)
 * @param writeHostfile where to write the hostfile without the flagged nodes, or null
 * @param clusterrunVersion kept in each round's {@code summary.json}
 */
public record ScreenRequest(
    JobInput input,
    LaunchOptions launch,
    double tolerance,
    Path writeHostfile,
    String clusterrunVersion) {

  /** {@code --tolerance}: a percentage, {@code 10%} or {@code 10}, above 0 and below 100. */
  public static double parseTolerance(String text) {
    String t = text == null ? "" : text.strip();
    if (t.endsWith("%")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    double pct;
    try {
      pct = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      pct = Double.NaN;
    }
    if (!(pct > 0 && pct < 100)) {
      throw new BadInputException(
          "--tolerance", "'" + text + "' is not a percentage above 0 and below 100 (e.g. 10%)");
    }
    return pct / 100;
  }
}
