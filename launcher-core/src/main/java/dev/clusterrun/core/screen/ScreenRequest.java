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
 * @param repeat how many times each measurement is taken (the best is judged), 1 or more
 * @param writeHostfile where to write the hostfile without the flagged nodes, or null
 * @param junit where to write the verdict as JUnit XML, or null
 * @param clusterrunVersion kept in the run's {@code summary.json}
 */
public record ScreenRequest(
    JobInput input,
    LaunchOptions launch,
    double tolerance,
    int repeat,
    Path writeHostfile,
    Path junit,
    String clusterrunVersion) {
  /** {@code --repeat}'s default: the best of three. */
  public static final int DEFAULT_REPEAT = 3;

  /** The most {@code --repeat} takes (the program's limit). */
  public static final int MAX_REPEAT = 100;

  public ScreenRequest {
    if (repeat < 1 || repeat > MAX_REPEAT) {
      throw new BadInputException(
          "--repeat", "must be from 1 to " + MAX_REPEAT + ", got " + repeat);
    }
  }

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
