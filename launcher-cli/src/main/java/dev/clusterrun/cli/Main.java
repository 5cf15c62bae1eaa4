package dev.clusterrun.cli;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.terminal.StandardInput;
import java.io.PrintStream;
import java.util.Map;

/** The only place that calls {@link System#exit}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // Fast path for scripts that probe the version in loops: no command tree to build.
      System.out.println(new VersionProvider().getVersion()[0]);
      System.exit(ExitCode.OK.value());
    }
    PrintStream out = System.out;
    PrintStream err = System.err;
    int code = run(out, err, System.getenv(), args);
    out.flush();
    err.flush();
    // A job's input copy still blocked in read(0) would hold the JVM's exit for 300 ms.
    StandardInput.release();
    System.exit(code);
  }

  /** Runs clusterrun with the given streams and environment; returns the exit code. */
  public static int run(PrintStream out, PrintStream err, Map<String, String> env, String... args) {
    return new Cli(out, err, env).execute(args);
  }
}
