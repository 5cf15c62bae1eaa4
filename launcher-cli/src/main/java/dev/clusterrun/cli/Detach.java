package dev.clusterrun.cli;

import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Progress;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code run --detach}: the foreground clusterrun starts a second one (the same java, classpath and
 * JVM options, the same words but {@code --detach}) in a session of its own ({@code setsid}), its
 * standard input {@code /dev/null} and its output one pipe, which the foreground copies to its
 * standard error until the background one says the run has started (its checks passed). The
 * foreground then prints the run id and exits 0; the background one sends nothing more to the pipe:
 * what it says goes to {@code clusterrun.log} in the run directory, the job's output to the run
 * directory's logs as always. When the background one ends before (failed checks, bad input), the
 * foreground exits with its code; Ctrl-C in the foreground before the run started ends both.
 */
final class Detach {
  /** Set in the background clusterrun's environment: the foreground's PID. */
  static final String PARENT_VAR = "CLUSTERRUN_DETACHED_FROM";

  /** The background clusterrun's one line after which it sends nothing more. */
  static final String STARTED = "clusterrun-detached-started ";

  /** Where the background clusterrun speaks once the run started, in the run directory. */
  static final String LOG = "clusterrun.log";

  private Detach() {}

  /** Whether this process is the background clusterrun of a {@code run --detach}. */
  static boolean isChild(Map<String, String> env) {
    String from = env.get(PARENT_VAR);
    return from != null
        && ProcessHandle.current()
            .parent()
            .map(p -> Long.toString(p.pid()).equals(from))
            .orElse(false);
  }

  /** The foreground: starts the background clusterrun and waits for its run to start. */
  static int foreground(List<String> originalArgs, RootCommand root)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    for (String s : List.of("/usr/bin/setsid", "/bin/setsid")) {
      if (Files.isExecutable(Path.of(s))) {
        cmd.add(s);
        break;
      }
    }
    cmd.add(ProcessHandle.current().info().command().orElse(javaHome()));
    cmd.addAll(jvmOptions());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(withoutDetach(originalArgs));
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectInput(new File("/dev/null")).redirectErrorStream(true);
    pb.environment().put(PARENT_VAR, Long.toString(ProcessHandle.current().pid()));
    Process p = pb.start();
    // Ctrl-C before the run started ends the background clusterrun too (it has a session of its
    // own, so the terminal's signal does not reach it).
    try (Console.Handle stop = new InterruptSignals().onInterrupt(sig -> p.destroy());
        BufferedReader r =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith(STARTED)) {
          String[] f = line.substring(STARTED.length()).split(" ", 2);
          root.out.println(f[0]);
          root.out.flush();
          root.err.println(
              "clusterrun: run "
                  + f[0]
                  + " started in the background (pid "
                  + p.pid()
                  + "); run directory "
                  + (f.length > 1 ? f[1] : "?")
                  + "; follow it with: clusterrun logs -f "
                  + f[0]);
          return 0;
        }
        root.err.println(line);
        root.err.flush();
      }
    }
    return p.waitFor();
  }

  private static String javaHome() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This JVM's own options (the launcher script's), for the background one. */
  private static List<String> jvmOptions() {
    try {
      return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
    } catch (RuntimeException | LinkageError e) {
      return List.of();
    }
  }

  /** The words without the first {@code --detach} among the options (before {@code --}). */
  static List<String> withoutDetach(List<String> args) {
    List<String> out = new ArrayList<>(args);
    for (int i = 0; i < out.size() && !out.get(i).equals("--"); i++) {
      if (out.get(i).equals("--detach")) {
        out.remove(i);
        break;
      }
    }
    return out;
  }

  /**
   * The background clusterrun's console: until the run starts, its output goes to the foreground
   * (over the pipe); then into the run directory's {@code clusterrun.log}, the job's output to the
   * run directory only.
   */
  static Console console(RootCommand root) {
    Switch out = new Switch(root.rawOut);
    Switch err = new Switch(root.rawErr);
    PrintWriter errWriter =
        new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    TerminalProgress shown = TerminalProgress.forTerminal(errWriter);
    java.io.PrintStream pipe = root.rawOut;
    Progress progress =
        new Progress() {
          @Override
          public void phase(String phase, List<String> nodes) {
            shown.phase(phase, nodes);
          }

          @Override
          public void finished(String phase, String node, List<String> pending) {
            shown.finished(phase, node, pending);
          }

          @Override
          public void done(String phase) {
            shown.done(phase);
          }

          @Override
          public void note(String line) {
            shown.note(line);
          }

          @Override
          public void runStarted(String runId, Path runDir) {
            errWriter.flush();
            try {
              err.to(
                  Files.newOutputStream(
                      runDir.resolve(LOG), StandardOpenOption.CREATE, StandardOpenOption.APPEND));
            } catch (IOException e) {
              err.to(OutputStream.nullOutputStream());
            }
            out.to(OutputStream.nullOutputStream());
            pipe.println(STARTED + runId + " " + runDir);
            pipe.flush();
          }
        };
    return new Console(progress, out, err, new InterruptSignals(), null);
  }

  /** An output stream whose destination changes once. */
  static final class Switch extends OutputStream {
    private OutputStream to;

    Switch(OutputStream to) {
      this.to = to;
    }

    synchronized void to(OutputStream next) {
      try {
        to.flush();
      } catch (IOException e) {
        // the old destination is gone
      }
      to = next;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      to.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      to.write(b, off, len);
    }

    @Override
    public synchronized void flush() throws IOException {
      to.flush();
    }
  }
}
