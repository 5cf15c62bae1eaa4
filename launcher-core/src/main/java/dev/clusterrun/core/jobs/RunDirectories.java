package dev.clusterrun.core.jobs;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.cleanup.Lifeline;
import dev.clusterrun.core.launch.run.JobRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where runs keep their files: {@code WORKSPACE/runs/RUN_ID/}, the directory named by the run id
 * {@code run} prints ({@code <time>-<job>-<hex>}). The workspace is {@code --workspace}, else
 * {@code CLUSTERRUN_WORKSPACE}, else {@code ~/clusterrun}, as for {@code run}.
 */
public final class RunDirectories {
  private RunDirectories() {}

  /**
   * The run directory of {@code runId} in {@code workspace}, or null when it has none. The full id
   * names its directory; a shorter word names the one run whose id ends with {@code -WORD} (its
   * random tail) or begins with it.
   *
   * @throws BadInputException naming {@code runId} when the word fits more than one run
   */
  public static Path find(Path workspace, String runId) {
    if (runId.isEmpty() || runId.contains("/") || runId.equals(".") || runId.equals("..")) {
      throw new BadInputException(runId.isEmpty() ? "RUN_ID" : runId, "not a run id");
    }
    Path runs = workspace.resolve("runs");
    Path exact = runs.resolve(runId);
    if (Files.isDirectory(exact)) {
      return exact;
    }
    List<String> fits = new ArrayList<>();
    try (Stream<Path> s = Files.list(runs)) {
      s.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith("-" + runId) || n.startsWith(runId))
          .sorted()
          .forEach(fits::add);
    } catch (IOException e) {
      return null;
    }
    if (fits.size() > 1) {
      throw new BadInputException(
          runId, "fits " + fits.size() + " runs in " + runs + ": " + String.join(", ", fits));
    }
    return fits.isEmpty() ? null : runs.resolve(fits.get(0));
  }

  /**
   * When the time limit of run {@code runId} in {@code workspace} passes ({@link
   * JobRunner#TIME_LIMIT_FILE}), or null: no limit, no such run, or no workspace given.
   */
  public static Instant timeLimitEnds(Path workspace, String runId) {
    try {
      Path dir = workspace == null ? null : find(workspace, runId);
      if (dir == null) {
        return null;
      }
      return Instant.parse(Files.readString(dir.resolve(JobRunner.TIME_LIMIT_FILE)).strip());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Whether the run has ended: its {@code summary.json} is written last, whatever happened; when
   * clusterrun was killed instead, the head's watcher's record says it stopped the run ({@link
   * Lifeline#recordsOfAStoppedRun}).
   */
  public static boolean ended(Path runDir) {
    return Files.exists(runDir.resolve("summary.json"))
        || !Lifeline.recordsOfAStoppedRun(runDir).isEmpty();
  }
}
