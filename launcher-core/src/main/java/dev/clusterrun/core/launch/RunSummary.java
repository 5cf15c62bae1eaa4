package dev.clusterrun.core.launch;

import java.util.List;
import java.util.Map;

/**
 * What {@code summary.json} in the run directory says about one run.
 *
 * @param outcome {@code succeeded}, {@code failed} (the job exited non-zero), {@code interrupted},
 *     {@code canary-failed}, {@code prepare-failed}
 * @param durationsSeconds wall time of each phase (prepare, canary, job, cleanup, total)
 */
public record RunSummary(
    int schema,
    String job,
    String runId,
    String runDir,
    String outcome,
    int exitCode,
    List<String> nodes,
    int ranks,
    String image,
    String container,
    String daemon,
    Map<String, String> versions,
    String startedAt,
    String endedAt,
    Map<String, Double> durationsSeconds,
    List<String> prepare,
    Canary.Result canary,
    List<RemoteReaper.NodeOutcome> leftovers,
    String message) {}
