package dev.clusterrun.core.screen;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.References;
import dev.clusterrun.core.launch.job.JobInput;
import dev.clusterrun.core.launch.job.LaunchOptions;
import java.nio.file.Path;

/**
 * One {@code clusterrun screen}.
 *
 * @param input the hostfile, the container flags (no command: the screen makes it), the environment
 * @param judging what the figures are held to
 * @param repeat how many times each measurement is taken (the best is judged), 1 or more
 * @param writeHostfile where to write the hostfile without the flagged nodes, or null
 * @param junit where to write the verdict as JUnit XML, or null
 * @param clusterrunVersion kept in the run's {@code summary.json}
 */
public record ScreenRequest(
    JobInput input,
    LaunchOptions launch,
    Judging judging,
    int repeat,
    Path writeHostfile,
    Path junit,
    String clusterrunVersion) {
  /** {@code --repeat}'s default: the best of three. */
  public static final int DEFAULT_REPEAT = 3;

  /** The most {@code --repeat} takes (the program's limit). */
  public static final int MAX_REPEAT = 100;

  /**
   * What the figures are held to besides the run's medians.
   *
   * @param tolerances {@code --tolerance}: per metric, how far a figure may be off
   * @param references {@code --references}: a references file with the figures expected, or null
   * @param cluster {@code --cluster}: the cluster's name in the references file and the results
   *     log, or null for the hostfile's name
   */
  public record Judging(Tolerances tolerances, Path references, String cluster) {
    public Judging {
      tolerances = tolerances == null ? Tolerances.DEFAULT : tolerances;
      if (cluster != null && References.clusterNameProblem(cluster) != null) {
        throw new BadInputException("--cluster", References.clusterNameProblem(cluster));
      }
    }
  }

  public ScreenRequest {
    if (repeat < 1 || repeat > MAX_REPEAT) {
      throw new BadInputException(
          "--repeat", "must be from 1 to " + MAX_REPEAT + ", got " + repeat);
    }
    judging = judging == null ? new Judging(null, null, null) : judging;
  }
}
