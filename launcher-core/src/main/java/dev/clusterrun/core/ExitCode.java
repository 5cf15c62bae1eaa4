package dev.clusterrun.core;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The one exit-code table of clusterrun, in the order people read it. The root {@code --help} and
 * README.md's "Exit codes" show exactly these rows (a test compares them); each command's {@code
 * --help} shows the rows that apply to it.
 */
public enum ExitCode {
  OK(0, "success"),
  JOB(-1, "the job ran and exited with code N; clusterrun passes it on"),
  RESULT_FAILED(
      1,
      "a benchmark ran but its result failed: a FAILED residual or validation, output that could"
          + " not be read, a fall below the baseline by more than --max-regression, or a metric"
          + " outside its reference (--references); screen: a node or a link was flagged"),
  BAD_INPUT(
      2,
      "bad input: a flag, an environment variable, the hostfile or the job file (the message names"
          + " it, with file:line:column where there is one)"),
  CHECK_FAILED(
      3,
      "a check failed on a node (the registry image's too: refused, not found, or out of reach"
          + " with no cached import), or a daemon or rank was found outside this run's container;"
          + " ps and stop: a node could not be asked, or kept the run"),
  SETUP_FAILED(4, "node setup failed, or the container could not be made ready"),
  NODE_LOST(
      5,
      "a node stopped answering while the job ran (--node-timeout): the job was stopped on the"
          + " other nodes; summary.json names the node"),
  INTERNAL(70, "internal error in clusterrun (--verbose prints its stack trace)"),
  TIME_LIMIT(
      124,
      "the time limit passed (--time, as timeout(1) exits): the job was stopped on every node as"
          + " Ctrl-C stops it; summary.json says \"ended\": \"time-limit\""),
  INTERRUPTED(
      -2,
      "ended by signal N: 129 SIGHUP (the terminal or SSH session hung up), 130 SIGINT (Ctrl-C),"
          + " 141 SIGPIPE (the reader of clusterrun's output went away, as when head -1 ends), 143"
          + " SIGTERM; a running job was stopped and cleaned up on every node");

  /** The exit code of a process that ends on signal {@code signal}, as shells give it: 128+N. */
  public static int bySignal(int signal) {
    if (signal <= 0 || signal > 64) {
      throw new IllegalArgumentException("no such signal: " + signal);
    }
    return 128 + signal;
  }

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /**
   * The process exit code; empty for {@link #JOB} (the job's own code) and {@link #INTERRUPTED}
   * (128 + the signal's number, {@link #bySignal}).
   */
  public OptionalInt code() {
    return code < 0 ? OptionalInt.empty() : OptionalInt.of(code);
  }

  /** The process exit code of every row but {@link #JOB} and {@link #INTERRUPTED}. */
  public int value() {
    if (code < 0) {
      throw new IllegalStateException(name() + " has no code of its own: " + label());
    }
    return code;
  }

  /** The code as a table shows it: {@code 0}, {@code N}, {@code 128+N}, … */
  public String label() {
    return code == -1 ? "N" : code == -2 ? "128+N" : Integer.toString(code);
  }

  /** One line, lower case, no final period: the same words in {@code --help} and README.md. */
  public String meaning() {
    return meaning;
  }

  /** Rows every command can end with. */
  private static final Set<ExitCode> ANY = EnumSet.of(OK, BAD_INPUT, INTERNAL, INTERRUPTED);

  /** Further rows, by command; a command not listed here ends with {@link #ANY} only. */
  private static final Map<String, Set<ExitCode>> MORE =
      Map.of(
          "check", EnumSet.of(CHECK_FAILED),
          "setup", EnumSet.of(SETUP_FAILED),
          "run", EnumSet.of(JOB, CHECK_FAILED, SETUP_FAILED, NODE_LOST, TIME_LIMIT),
          "ps", EnumSet.of(CHECK_FAILED),
          "stop", EnumSet.of(CHECK_FAILED),
          "hpl", EnumSet.allOf(ExitCode.class),
          "bench", EnumSet.allOf(ExitCode.class),
          "screen", EnumSet.of(RESULT_FAILED, CHECK_FAILED, SETUP_FAILED, NODE_LOST, TIME_LIMIT));

  /** Every row, for the root {@code --help}: label → meaning, as README.md shows them. */
  public static Map<String, String> table() {
    return rows(EnumSet.allOf(ExitCode.class));
  }

  /** The rows that apply to one command (by its name), in the table's order. */
  public static Map<String, String> table(String command) {
    Set<ExitCode> codes = EnumSet.copyOf(ANY);
    codes.addAll(MORE.getOrDefault(command, Set.of()));
    return rows(codes);
  }

  private static Map<String, String> rows(Set<ExitCode> codes) {
    Map<String, String> m = new LinkedHashMap<>();
    for (ExitCode c : values()) {
      if (codes.contains(c)) {
        m.put(c.label(), c.meaning());
      }
    }
    return m;
  }
}
