package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchOptions;
import picocli.CommandLine.Option;

/** Options of commands that run a job: {@code run}, {@code hpl}, {@code bench}. */
final class RunOptions {
  @Option(names = "--skip-checks")
  boolean skipChecks;

  @Option(names = "--canary")
  boolean canaryOnly;

  @Option(names = "--no-canary")
  boolean noCanary;

  @Option(
      names = "--mpi-daemon",
      paramLabel = "auto|orted|prted",
      completionCandidates = Candidates.MpiDaemons.class)
  String daemon = "auto";

  @Option(
      names = "--stdin",
      paramLabel = "none|0|all|RANK",
      completionCandidates = Candidates.StdinTargets.class)
  String stdin = "0";

  /** These options (and {@code --no-hook}) as the core takes them. */
  LaunchOptions options(JobOptions job) {
    return LaunchOptions.of(skipChecks, canaryOnly, noCanary, daemon, job.noHook)
        .withIo(stdin, false);
  }
}
