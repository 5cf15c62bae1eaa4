package dev.clusterrun.core.launch.head;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.ExitException;
import dev.clusterrun.core.output.Spool;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecuteResultHandler;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * One command on the head (clusterrun's own machine), run with commons-exec: output streamed as it
 * comes, the exit code passed on, and the whole process tree stoppable.
 */
public final class HeadProcess {
  private final Process process;
  private final DefaultExecuteResultHandler handler;
  private final OutputStream stdin;
  private final Spool spool;

  private HeadProcess(
      Process process, DefaultExecuteResultHandler handler, OutputStream stdin, Spool spool) {
    this.process = process;
    this.handler = handler;
    this.stdin = stdin;
    this.spool = spool;
  }

  /**
   * Starts {@code argv} with the current environment plus {@code env}; stdout and stderr are
   * copied, unbuffered, to the given streams.
   */
  public static HeadProcess start(
      List<String> argv, Map<String, String> env, File dir, OutputStream out, OutputStream err)
      throws IOException {
    return start(argv, env, dir, new Pipes(out, err, false), null);
  }

  /**
   * Starts {@code argv} with its standard output and error in {@code spool}'s files ({@link Spool}:
   * nothing it writes is lost, however slow the reader), its standard input kept open for the
   * caller ({@link #stdin}) when {@code keepInput}, else closed. What the wrapper itself says (a
   * spool file it cannot open) goes to {@code err}.
   */
  public static HeadProcess startSpooled(
      List<String> argv, Map<String, String> env, Spool spool, OutputStream err, boolean keepInput)
      throws IOException {
    // The wrapper always starts: a program missing from the head is found before it.
    requireInstalled(argv.get(0), fullEnv(env));
    return start(spool.wrap(argv), env, null, new Pipes(err, err, keepInput), spool);
  }

  /** The spool its output goes to ({@link #startSpooled}), or null. */
  public Spool spool() {
    return spool;
  }

  /** The current environment plus {@code env}, and which clusterrun started the process. */
  private static Map<String, String> fullEnv(Map<String, String> env) {
    Map<String, String> full = new HashMap<>(System.getenv());
    // Which clusterrun started it (HeadMark), for the head's enroot start to pass into the job.
    full.put(HeadMark.VAR, HeadMark.current());
    full.putAll(env);
    return full;
  }

  /**
   * Refuses {@code program} when it is a bare name on no directory of {@code env}'s PATH: what the
   * `enroot` check would have said (with --skip-checks nothing said so before).
   */
  private static void requireInstalled(String program, Map<String, String> env) {
    String path = env.getOrDefault("PATH", "");
    if (!program.contains("/") && !onPath(program, path)) {
      throw new ExitException(
          ExitCode.CHECK_FAILED,
          program
              + " is not installed on the head (not in PATH="
              + path
              + "): nothing was started; `clusterrun check` shows what each node lacks");
    }
  }

  /**
   * Where the process's own pipes go.
   *
   * @param keepInput its standard input kept open for the caller ({@link #stdin}), else closed
   */
  private record Pipes(OutputStream out, OutputStream err, boolean keepInput) {}

  private static HeadProcess start(
      List<String> argv, Map<String, String> env, File dir, Pipes pipes, Spool spool)
      throws IOException {
    OutputStream out = pipes.out();
    OutputStream err = pipes.err();
    boolean keepInput = pipes.keepInput();
    CommandLine cl = new CommandLine(argv.get(0));
    for (String a : argv.subList(1, argv.size())) {
      cl.addArgument(a, false);
    }
    AtomicReference<Process> started = new AtomicReference<>();
    DefaultExecutor ex =
        new DefaultExecutor() {
          // commons-exec 1.5+ launches through the Path overload; older ones through File.
          @Override
          protected Process launch(
              CommandLine command, Map<String, String> environment, java.nio.file.Path workingDir)
              throws IOException {
            Process p = super.launch(command, environment, workingDir);
            started.set(p);
            return p;
          }

          @Override
          protected Process launch(
              CommandLine command, Map<String, String> environment, File workingDir)
              throws IOException {
            Process p = super.launch(command, environment, workingDir);
            started.set(p);
            return p;
          }
        };
    ex.setExitValues(null); // every exit code is an answer, not an exception
    if (dir != null) {
      ex.setWorkingDirectory(dir);
    }
    PumpStreamHandler pump =
        new PumpStreamHandler(out, err, null) {
          @Override
          public void setProcessInputStream(OutputStream os) {
            // Kept open for the caller (the process's own stream, HeadProcess#stdin), else closed.
            if (!keepInput) {
              super.setProcessInputStream(os);
            }
          }
        };
    ex.setStreamHandler(pump);
    Map<String, String> full = fullEnv(env);
    DefaultExecuteResultHandler handler = new DefaultExecuteResultHandler();
    try {
      ex.execute(cl, full, handler);
    } catch (ExecuteException e) {
      throw new IOException(e.getMessage(), e);
    }
    // execute() returns after launch; the process is known by then or launch failed.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (started.get() == null && !handler.hasResult() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    if (started.get() == null) {
      try {
        handler.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      String program = argv.get(0);
      requireInstalled(program, full);
      Exception e = handler.getException();
      throw new IOException(
          "cannot start " + program + (e == null ? "" : ": " + e.getMessage()), e);
    }
    Process p = started.get();
    return new HeadProcess(p, handler, keepInput ? p.getOutputStream() : null, spool);
  }

  /** The process's standard input, when started with it kept ({@link #startSpooled}); else null. */
  public OutputStream stdin() {
    return stdin;
  }

  /** Whether {@code program} is an executable file in a directory of {@code path}. */
  private static boolean onPath(String program, String path) {
    for (String dir : path.split(":", -1)) {
      java.nio.file.Path f = java.nio.file.Path.of(dir.isEmpty() ? "." : dir, program);
      if (java.nio.file.Files.isRegularFile(f) && java.nio.file.Files.isExecutable(f)) {
        return true;
      }
    }
    return false;
  }

  public long pid() {
    return process.pid();
  }

  /**
   * Whether this process has switched its root to another directory ({@code /proc/PID/root} is not
   * this machine's {@code /}): enroot's start has pivoted into the container, after its mounts and
   * hooks (enroot makes no PID namespace, so the command it runs is this same process).
   */
  public boolean rootSwitched() {
    try {
      return !Arrays.equals(
          identity(Path.of("/")), identity(Path.of("/proc", Long.toString(pid()), "root")));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static Object[] identity(Path p) throws IOException {
    Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino");
    return new Object[] {a.get("dev"), a.get("ino")};
  }

  /**
   * Waits for the exit code; the output pumps have finished when this returns (commons-exec joins
   * them before it reports the result).
   */
  public int waitFor() throws InterruptedException {
    handler.waitFor();
    if (handler.getException() != null
        && handler.getExitValue() == org.apache.commons.exec.Executor.INVALID_EXITVALUE) {
      return 127;
    }
    return handler.getExitValue();
  }

  public boolean waitFor(Duration d) throws InterruptedException {
    handler.waitFor(d);
    return handler.hasResult();
  }

  public boolean isAlive() {
    return !handler.hasResult();
  }

  /** Sends SIGINT to the process (mpirun stops its ranks and daemons on SIGINT). */
  public void interrupt() {
    Signals.send(process.pid(), Signals.SIGINT);
  }

  public void terminate() {
    Signals.send(process.pid(), Signals.SIGTERM);
  }

  /** Kills the process and every descendant still alive, children first. */
  public List<ProcessHandle> killTree() {
    List<ProcessHandle> killed = new java.util.ArrayList<>();
    ProcessHandle root = process.toHandle();
    List<ProcessHandle> all = new java.util.ArrayList<>(root.descendants().toList());
    java.util.Collections.reverse(all);
    all.add(root);
    for (ProcessHandle h : all) {
      if (h.isAlive() && h.destroyForcibly()) {
        killed.add(h);
      }
    }
    return killed;
  }
}
