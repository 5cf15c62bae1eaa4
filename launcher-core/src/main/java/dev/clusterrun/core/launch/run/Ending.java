package dev.clusterrun.core.launch.run;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.head.Signals;

/** How the job ended and the code to exit with. */
public record Ending(RunEnd end, int exitCode) {
  /**
   * The end with its row's code; {@link RunEnd#INTERRUPTED} as by SIGINT (130), which {@link
   * JobRunner} makes the code of the signal that stopped the run.
   */
  public static Ending of(RunEnd end) {
    return new Ending(
        end,
        end == RunEnd.INTERRUPTED ? ExitCode.bySignal(Signals.SIGINT) : end.exitCode().value());
  }
}
