package dev.clusterrun.core.launch.cleanup;

import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellScript;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * No job without its launcher: a run's processes on a node are tied to clusterrun's life by a pipe,
 * not by a JVM handler that SIGKILL skips. Beside the job, each tied node runs a small watcher
 * ({@link NodeShell#hold}) whose standard input is a pipe only clusterrun holds. When clusterrun
 * ends however it ends (SIGKILL, the OOM killer, its session torn down) the kernel closes that pipe
 * and, on another node, sshd closes the watcher's input with the connection: its read returns the
 * end of input, and it stops every process of the user that carries the run's id, by PID ({@link
 * RemoteReaper}: SIGTERM, SIGKILL 2 s later), then once more a second later for what started
 * meanwhile, and appends what it stopped to the run directory ({@link #record}). A run that ends in
 * order says {@value #DONE} first: the watcher exits and stops nothing (clusterrun's own search for
 * leftovers did that already).
 *
 * <p>On the head the watcher runs in a session of its own ({@code setsid}): a hang-up or Ctrl-C
 * meant for clusterrun's process group does not end it before it acts, and it ignores SIGHUP,
 * SIGINT and SIGTERM. Its stop of {@code mpirun} (SIGTERM, which mpirun catches) takes Open MPI's
 * daemons down on every other node; with Open MPI 4.1.4 they also end within 2 s of a SIGKILLed
 * mpirun, but mpirun's own ranks on the head do not, which is why the head's watcher looks for the
 * run id rather than signalling a process group (mpirun puts each rank and each {@code ssh} in a
 * process group of its own).
 *
 * <p>PR_SET_PDEATHSIG is not used: it fires on the death of the thread that forked, not of the
 * process, and enroot's helpers with file capabilities clear it across exec.
 */
public final class Lifeline implements AutoCloseable {
  /** The line that tells a watcher the run ended in order. */
  static final String DONE = "done";

  private final List<OutputStream> inputs;

  private Lifeline(List<OutputStream> inputs) {
    this.inputs = inputs;
  }

  private static final ShellScript SCRIPT =
      RemoteReaper.REAP.then(ShellScript.load(Lifeline.class, "lifeline.sh"));

  /**
   * What each watcher runs ({@code lifeline.sh} with the reaper before it): waits for its input to
   * end, then stops the run's processes, appending what it stopped to {@code record}.
   */
  static String script(String runId, String record, boolean head) {
    return SCRIPT.with(List.of(runId, DONE, record, head ? "head" : "node"));
  }

  /**
   * What the head's watcher's record says first when it acted: on the head the end of its input
   * means clusterrun itself ended (elsewhere it may also mean a lost connection).
   */
  static final String HEAD_ACTED = "the head: clusterrun ended without ending the run";

  /**
   * Where the watcher on {@code node} writes what it stopped: {@code lifeline-NODE.log} in the run
   * directory.
   */
  public static Path record(Path runDir, String node) {
    return runDir.resolve("lifeline-" + node + ".log");
  }

  /**
   * The watchers' records in {@code runDir} of a run whose clusterrun ended without ending it
   * (SIGKILL, the OOM killer, a lost session): every finished record (its last line {@code done})
   * by name, when the head's is among them; else (the run ended in order, or is still going, or a
   * node only lost its connection) none.
   */
  public static List<Path> recordsOfAStoppedRun(Path runDir) {
    List<Path> done = new ArrayList<>();
    boolean head = false;
    try (Stream<Path> s = Files.list(runDir)) {
      for (Path p : s.sorted().toList()) {
        String n = p.getFileName().toString();
        String text = n.startsWith("lifeline-") && n.endsWith(".log") ? read(p) : "";
        if (text.endsWith(": done\n")) {
          done.add(p);
          head |= text.contains(HEAD_ACTED);
        }
      }
    } catch (IOException e) {
      // no run directory to read: no record
    }
    return head ? done : List.of();
  }

  private static String read(Path record) {
    try {
      return Files.readString(record);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Starts a watcher for run {@code runId} on each node's shell (a shell that cannot hold a command
   * is left out), each recording in {@code runDir} ({@link #record}); {@code head} names
   * clusterrun's own node. Never waits for a node to answer.
   */
  public static Lifeline tie(
      Map<String, NodeShell> shells, String head, String runId, Path runDir) {
    List<OutputStream> in = new ArrayList<>();
    for (Map.Entry<String, NodeShell> s : shells.entrySet()) {
      String record = record(runDir, s.getKey()).toString();
      OutputStream o = s.getValue().hold(script(runId, record, s.getKey().equals(head)));
      if (o != null) {
        in.add(o);
      }
    }
    return new Lifeline(List.copyOf(in));
  }

  /** The run ended in order: each watcher exits without stopping anything. */
  @Override
  public void close() {
    byte[] done = (DONE + "\n").getBytes(StandardCharsets.US_ASCII);
    for (OutputStream o : inputs) {
      try {
        o.write(done);
        o.flush();
      } catch (IOException e) {
        // the watcher ended already
      }
      try {
        o.close();
      } catch (IOException e) {
        // likewise
      }
    }
  }
}
