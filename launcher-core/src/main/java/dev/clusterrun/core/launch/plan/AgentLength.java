package dev.clusterrun.core.launch.plan;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.spec.Carry;
import dev.clusterrun.core.spec.Mount;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The launch agent's length against Linux's limit for one argument ({@link Planner}). */
final class AgentLength {
  private AgentLength() {}

  /**
   * Open MPI hands the launch agent to every other node twice within one argument of its shell: the
   * agent must stay well within Linux's limit for one argument. The setting that makes it longest
   * is named.
   */
  static void check(ResolvedJob job, String agentString) {
    int bytes = agentString.getBytes(StandardCharsets.UTF_8).length;
    if (bytes <= Carry.MAX_AGENT) {
      return;
    }
    long env = 0;
    for (Map.Entry<String, String> e : job.env().value().entrySet()) {
      env += e.getKey().length() + e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    long mounts = 0;
    for (Mount m : job.mounts().value()) {
      mounts += EnrootArgs.mount(m).getBytes(StandardCharsets.UTF_8).length;
    }
    String subject =
        env >= mounts
            ? JobResolver.subject(job.env(), "container.env")
            : JobResolver.subject(job.mounts(), "container.mounts");
    throw new BadInputException(
        subject,
        "makes the launch agent "
            + bytes
            + " bytes long; at most "
            + Carry.MAX_AGENT
            + " (Open MPI hands it to every node twice within one argument, and Linux passes at"
            + " most "
            + Carry.MAX_ARG_STRLEN
            + " bytes in one)");
  }
}
