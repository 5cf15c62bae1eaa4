package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.terminal.Detached;
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

  @Option(names = "--detach")
  boolean detach;

  /** What a run does once it is decided where it runs: the core call, rendered. */
  interface Job {
    int run(Console console) throws Exception;
  }

  /**
   * Runs {@code job} here; with {@code --detach}, starts the background clusterrun (which runs it)
   * and returns the foreground's exit code once the run started (or the background one ended).
   */
  int start(RootCommand root, Job job) throws Exception {
    if (!detach) {
      return job.run(console(root));
    }
    Detached.Foreground f =
        Detached.foreground(
            root.spec.commandLine().getParseResult().originalArgs(),
            Main.class.getName(),
            line -> {
              root.err.println(line);
              root.err.flush();
            });
    if (f.runId() != null) {
      root.out.println(f.runId());
      root.out.flush();
      if (root.closedReader.closed()) {
        // Nobody got the run id (| true, a reader gone): the run is stopped, as SIGPIPE would.
        Detached.Foreground stopped = f.stoppedUnread();
        root.err.println(
            "clusterrun: the reader of the run id went away (EPIPE): stopping run " + f.runId());
        return stopped.exitCode();
      }
      root.err.println("clusterrun: " + f.note());
    }
    return f.exitCode();
  }

  /** Where the job's command speaks: the background clusterrun's console, or the terminal's. */
  static Console console(RootCommand root) {
    return Detached.isChild(root.env)
        ? Detached.console(root.rawOut, root.rawErr, RootCommand::progress)
        : root.console();
  }

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
