package dev.clusterrun.cli;

/** The one exit-code table. {@code --help} prints it; README.md documents it. */
public final class ExitCodes {
  private ExitCodes() {}

  public static final int OK = 0;
  public static final int BAD_INPUT = 2;
  public static final int CHECK_FAILED = 3;
  public static final int SETUP_FAILED = 4;
  public static final int INTERNAL = 70;
  public static final int INTERRUPTED = 130;

  /** Rows for picocli's exit-code section, in the order people read them. */
  public static java.util.Map<String, String> helpTable() {
    var m = new java.util.LinkedHashMap<String, String>();
    m.put("0", "Success.");
    m.put("N", "The job ran and exited with code N: clusterrun passes it on.");
    m.put("2", "Bad input: a flag, the hostfile or the job file (the message names file:line).");
    m.put("3", "A check failed on a node (see `clusterrun check`).");
    m.put("4", "Node setup failed.");
    m.put("70", "Internal error in clusterrun (run with --verbose for a stack trace).");
    m.put("130", "Interrupted (Ctrl-C or SIGTERM); the job was stopped on every node.");
    return m;
  }
}
