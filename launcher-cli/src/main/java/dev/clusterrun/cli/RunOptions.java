package dev.clusterrun.cli;

import dev.clusterrun.core.launch.LaunchOptions;
import picocli.CommandLine.Option;

/** Options of commands that run a job: {@code run}, {@code hpl}, {@code bench}. */
final class RunOptions {
  @Option(
      names = "--skip-checks",
      description =
          "Do not run the check suite first (for people who just ran `clusterrun check`).")
  boolean skipChecks;

  @Option(
      names = "--canary",
      description =
          "Only run the canary, a dry rehearsal: a short mpirun of the job's shape whose ranks report their hostname and whether they are inside the container. A real run needs none: its own launch proves every daemon.")
  boolean canaryOnly;

  @Option(
      names = "--no-canary",
      description =
          "Accepted for older scripts: no canary runs before the job (the job's own launch proves every daemon).")
  boolean noCanary;

  @Option(
      names = "--mpi-daemon",
      paramLabel = "auto|orted|prted",
      completionCandidates = Candidates.MpiDaemons.class,
      description =
          "Daemon the launch agent starts: auto (detected with mpirun --version in the container), orted (Open MPI 4) or prted (Open MPI 5). Default: ${DEFAULT-VALUE}.")
  String daemon = "auto";

  /** These options (and {@code --no-hook}) as the core takes them. */
  LaunchOptions options(JobOptions job) {
    return LaunchOptions.of(skipChecks, canaryOnly, noCanary, daemon, job.noHook);
  }
}
