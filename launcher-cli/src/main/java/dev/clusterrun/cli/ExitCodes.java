package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The exit codes as ints for {@code return}, and the help rows of the one table ({@link ExitCode}):
 * the root {@code --help} shows every row, each command the rows that apply to it.
 */
public final class ExitCodes {
  private ExitCodes() {}

  public static final int OK = code(ExitCode.OK);
  public static final int BAD_INPUT = code(ExitCode.BAD_INPUT);
  public static final int CHECK_FAILED = code(ExitCode.CHECK_FAILED);
  public static final int SETUP_FAILED = code(ExitCode.SETUP_FAILED);
  public static final int RESULT_FAILED = code(ExitCode.RESULT_FAILED);
  public static final int INTERNAL = code(ExitCode.INTERNAL);
  public static final int INTERRUPTED = code(ExitCode.INTERRUPTED);

  /** Rows every command can end with. */
  private static final Set<ExitCode> ANY =
      EnumSet.of(ExitCode.OK, ExitCode.BAD_INPUT, ExitCode.INTERNAL, ExitCode.INTERRUPTED);

  /** Further rows, by command; a command not listed here ends with {@link #ANY} only. */
  private static final Map<String, Set<ExitCode>> MORE =
      Map.of(
          "check", EnumSet.of(ExitCode.CHECK_FAILED),
          "setup", EnumSet.of(ExitCode.SETUP_FAILED),
          "run", EnumSet.of(ExitCode.JOB, ExitCode.CHECK_FAILED, ExitCode.SETUP_FAILED),
          "hpl", EnumSet.allOf(ExitCode.class),
          "bench", EnumSet.allOf(ExitCode.class));

  private static int code(ExitCode c) {
    return c.code().orElseThrow();
  }

  /** Every row, for the root {@code --help}: label → meaning, as README.md shows them. */
  public static Map<String, String> helpTable() {
    return rows(EnumSet.allOf(ExitCode.class));
  }

  /** The rows that apply to one command (by its name), in the table's order. */
  public static Map<String, String> helpTable(String command) {
    Set<ExitCode> codes = EnumSet.copyOf(ANY);
    codes.addAll(MORE.getOrDefault(command, Set.of()));
    return rows(codes);
  }

  private static Map<String, String> rows(Set<ExitCode> codes) {
    Map<String, String> m = new LinkedHashMap<>();
    for (ExitCode c : ExitCode.values()) {
      if (codes.contains(c)) {
        m.put(c.label(), c.meaning());
      }
    }
    return m;
  }
}
