package dev.clusterrun.core.terminal;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.output.ClosedReader;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Progress;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code run --detach}: the foreground clusterrun starts a second one (the same java, classpath and
 * JVM options, the same words but {@code --detach}) in a session of its own ({@code setsid}), its
 * standard input {@code /dev/null} and its output one pipe, which the foreground passes on (to its
 * standard error) until the background one says the run has started (its checks passed). The
 * foreground then gives the run id and exits 0; the background one sends nothing more to the pipe:
 * what it says goes to {@code clusterrun.log} in the run directory, the job's output to the run
 * directory's logs as always. When the background one ends before (failed checks, bad input), the
 * foreground exits with its code; Ctrl-C in the foreground before the run started ends both.
 */
public final class Detached {
  /** Set in the background clusterrun's environment: the foreground's PID. */
  static final String PARENT_VAR = "CLUSTERRUN_DETACHED_FROM";

  /** The background clusterrun's one line after which it sends nothing more. */
  static final String STARTED = "clusterrun-detached-started ";

  /** Where the background clusterrun speaks once the run started, in the run directory. */
  static final String LOG = "clusterrun.log";

  private Detached() {}

  /**
   * How the foreground ended.
   *
   * @param exitCode 0 once the run started, else the background clusterrun's own code
   * @param runId the run started in the background, or null when it ended before
   * @param note one line for people about the background run, or null
   * @param pid the background clusterrun's process id
   */
  public record Foreground(int exitCode, String runId, String note, long pid) {
    /**
     * Stops the background run as SIGTERM stops a run (the job stopped on every node, cleaned up):
     * for a foreground that could not give the run id to anyone.
     */
    public void stopRun() {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    }

    /**
     * The run stopped ({@link #stopRun}) because nobody got its id (the reader of clusterrun's
     * output went away): the foreground ends as SIGPIPE would end it, 141.
     */
    public Foreground stoppedUnread() {
      stopRun();
      return new Foreground(ExitCode.bySignal(ClosedReader.SIGPIPE), runId, note, pid);
    }
  }

  /** Whether this process is the background clusterrun of a {@code run --detach}. */
  public static boolean isChild(Map<String, String> env) {
    String from = env.get(PARENT_VAR);
    return from != null
        && ProcessHandle.current()
            .parent()
            .map(p -> Long.toString(p.pid()).equals(from))
            .orElse(false);
  }

  /**
   * The foreground: starts the background clusterrun ({@code mainClass} with {@code originalArgs}
   * but {@code --detach}), gives each line it says to {@code passOn}, and waits for its run to
   * start.
   */
  public static Foreground foreground(
      List<String> originalArgs, String mainClass, Consumer<String> passOn)
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
    cmd.add(mainClass);
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
          return new Foreground(
              0, f[0], startedNote(f[0], p.pid(), f.length > 1 ? f[1] : "?"), p.pid());
        }
        passOn.accept(line);
      }
    }
    return new Foreground(p.waitFor(), null, null, p.pid());
  }

  static String startedNote(String runId, long pid, String runDir) {
    return "run "
        + runId
        + " started in the background (pid "
        + pid
        + "); run directory "
        + runDir
        + "; follow it with: clusterrun logs -f "
        + runId;
  }

  private static String javaHome() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This JVM's own options (the launcher script's), for the background one. */
  private static List<String> jvmOptions() {
    try {
      return ManagementFactory.getRuntimeMXBean().getInputArguments();
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
   * (over the pipe, {@code rawOut}; its progress as {@code shown} renders it on {@code rawErr});
   * then into the run directory's {@code clusterrun.log}, the job's output to the run directory
   * only.
   */
  public static Console console(
      PrintStream rawOut, PrintStream rawErr, Function<PrintWriter, Progress> shown) {
    Switch out = new Switch(rawOut);
    Switch err = new Switch(rawErr);
    PrintWriter errWriter =
        new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    Progress progress = new Background(shown.apply(errWriter), errWriter, out, err, rawOut);
    return new Console(progress, out, err, new InterruptSignals(), null);
  }

  /** The background clusterrun's progress: shown as before, until the run started. */
  private record Background(
      Progress shown, PrintWriter errWriter, Switch out, Switch err, PrintStream pipe)
      implements Progress {
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
