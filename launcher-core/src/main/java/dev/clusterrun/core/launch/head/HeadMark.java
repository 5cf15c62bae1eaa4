package dev.clusterrun.core.launch.head;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which clusterrun process a run's head belongs to: {@code CLUSTERRUN_HEAD=PID START} in the
 * environment of the head's {@code enroot start} (passed into the container with {@code --env}, so
 * mpirun carries it beside {@code CLUSTERRUN_RUN_ID}), START being the process's start time in
 * clock ticks since boot ({@code /proc/PID/stat} field 22). {@code clusterrun ps} reads it on the
 * head: when no process with that PID and that start time lives, the run is headless (its
 * clusterrun is gone, whatever reuses the PID).
 */
public final class HeadMark {
  /** The variable's name. */
  public static final String VAR = "CLUSTERRUN_HEAD";

  private static final String VALUE = read();

  private HeadMark() {}

  /** This clusterrun's mark, or "" when /proc cannot tell its start time. */
  public static String current() {
    return VALUE;
  }

  private static String read() {
    long pid = ProcessHandle.current().pid();
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      String start = startTicks(stat);
      return start == null ? "" : pid + " " + start;
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** Field 22 of a {@code /proc/PID/stat} line (the command may hold spaces and parentheses). */
  static String startTicks(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return null;
    }
    String[] f = stat.substring(close + 1).trim().split("\\s+");
    // f[0] is field 3 (state): field 22 is f[19].
    return f.length > 19 ? f[19] : null;
  }
}
