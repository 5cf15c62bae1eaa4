package dev.clusterrun.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

/** The only place that calls {@link System#exit}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    int code = run(out, err, System.getenv(), args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs clusterrun with the given streams and environment; returns the exit code. */
  public static int run(
      PrintStream out, PrintStream err, java.util.Map<String, String> env, String... args) {
    PrintWriter o = new PrintWriter(out, true);
    PrintWriter e = new PrintWriter(err, true);
    return new Cli(o, e, env).execute(args);
  }
}
