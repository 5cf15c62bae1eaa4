package dev.clusterrun.core.launch.run;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.clusterrun.core.EnumWords;
import dev.clusterrun.core.ExitCode;

/**
 * How a run ended, as {@code summary.json} names it, and the row of the exit-code table it takes.
 */
public enum RunEnd {
  /** The job (or the canary alone, with {@code --canary}) exited 0. */
  SUCCEEDED(ExitCode.OK),
  /** The job ran and exited non-zero: its own code is passed on. */
  FAILED(ExitCode.JOB),
  /** Ctrl-C, SIGTERM or SIGHUP: the job was stopped on every node; 128 + the signal's number. */
  INTERRUPTED(ExitCode.INTERRUPTED),
  /**
   * A remote daemon started without this run's proof (another launch agent, outside the container,
   * without the job's mounts): the job was stopped before its output reached anyone.
   */
  PROOF_FAILED(ExitCode.CHECK_FAILED),
  /** The canary found a rank outside this run's container; the job did not start. */
  CANARY_FAILED(ExitCode.CHECK_FAILED),
  /** The container (or the daemon inside it) could not be made ready. */
  PREPARE_FAILED(ExitCode.SETUP_FAILED),
  /** A node stopped answering while the job ran; the job was stopped on the others. */
  NODE_LOST(ExitCode.NODE_LOST),
  /**
   * The time limit ({@code --time}) passed: the job was stopped on every node as Ctrl-C stops it.
   */
  TIME_LIMIT(ExitCode.TIME_LIMIT);

  private final ExitCode exitCode;

  RunEnd(ExitCode exitCode) {
    this.exitCode = exitCode;
  }

  /** The word {@code summary.json} says: {@code succeeded}, {@code proof-failed}, …. */
  @JsonValue
  public String label() {
    return EnumWords.word(this);
  }

  public ExitCode exitCode() {
    return exitCode;
  }

  /**
   * The process exit code: the table's, or for {@link #FAILED} the job's own, for {@link
   * #INTERRUPTED} 128 + the signal's number ({@code code}).
   */
  public int exitCode(int code) {
    return this == FAILED || this == INTERRUPTED ? code : exitCode.value();
  }

  @Override
  public String toString() {
    return label();
  }
}
