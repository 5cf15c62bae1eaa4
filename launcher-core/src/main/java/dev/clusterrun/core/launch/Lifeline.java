package dev.clusterrun.core.launch;

import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellScript;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * No job without its launcher: a run's processes on a node are tied to clusterrun's life by a pipe,
 * not by a JVM handler that SIGKILL skips. Beside the job, each tied node runs a small watcher
 * ({@link NodeShell#hold}) whose standard input is a pipe only clusterrun holds. When clusterrun
 * ends however it ends (SIGKILL, the OOM killer, its session torn down) the kernel closes that pipe
 * and, on another node, sshd closes the watcher's input with the connection: its read returns the
 * end of input, and it stops every process of the user that carries the run's id, by PID ({@link
 * RemoteReaper}: SIGTERM, SIGKILL 2 s later), then once more a second later for what started
 * meanwhile. A run that ends in order says {@value #DONE} first: the watcher exits and stops
 * nothing (clusterrun's own search for leftovers did that already).
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
   * end, then stops the run's processes.
   */
  static String script(String runId) {
    return SCRIPT.with(List.of(runId, DONE));
  }

  /**
   * Starts a watcher for run {@code runId} on each shell (a shell that cannot hold a command is
   * left out); never waits for a node to answer.
   */
  public static Lifeline tie(Collection<NodeShell> shells, String runId) {
    String script = script(runId);
    List<OutputStream> in = new ArrayList<>();
    for (NodeShell s : shells) {
      OutputStream o = s.hold(script);
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
