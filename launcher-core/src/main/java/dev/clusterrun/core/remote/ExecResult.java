package dev.clusterrun.core.remote;

import java.time.Duration;

/**
 * What one command on one node gave back. {@code exitCode} is -1 when the command never produced
 * one (timeout, lost connection); {@code error} then says why.
 */
public record ExecResult(
    int exitCode, String stdout, String stderr, Duration elapsed, String error) {
  public static ExecResult failed(String error, Duration elapsed) {
    return new ExecResult(-1, "", "", elapsed, error);
  }

  public boolean ok() {
    return exitCode == 0 && error == null;
  }
}
