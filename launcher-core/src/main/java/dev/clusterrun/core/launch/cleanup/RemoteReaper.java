package dev.clusterrun.core.launch.cleanup;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and stops what a run left on a node: every process of the job user that carries the run's
 * {@code CLUSTERRUN_RUN_ID} (the launch agent puts it in the environment of each remote daemon, and
 * the ranks inherit it). Processes are found and killed by PID, never by pattern.
 */
public final class RemoteReaper {
  /** One process found on a node, and whether it survived SIGTERM (then got SIGKILL). */
  public record Leftover(String node, long pid, String command, boolean neededKill) {}

  /** The outcome on one node: what was found, or why the node could not be asked. */
  public record Reaped(String node, List<Leftover> leftovers, String error) {}

  private RemoteReaper() {}

  /** {@code reap_run RUN_ID}: {@code reap.sh} beside this class, after the run's processes. */
  static final ShellScript REAP =
      RunProcesses.before(ShellScript.load(RemoteReaper.class, "reap.sh"));

  private static final ShellScript SCRIPT =
      REAP.then(ShellScript.load(RemoteReaper.class, "remote-reaper.sh"));

  /**
   * The script run on a node ({@code remote-reaper.sh} with {@code reap.sh} and the run's processes
   * before it): the processes as every command finds them ({@link RunProcesses}), here on the whole
   * node, by PID only, never by pattern; exposed for tests.
   */
  public static String script(String runId) {
    return SCRIPT.with(List.of(runId));
  }

  public static Reaped reap(NodeShell shell, String runId, Duration timeout) {
    ExecResult r = shell.run(script(runId), timeout);
    if (r.error() != null) {
      return new Reaped(shell.node(), List.of(), r.error());
    }
    List<Leftover> found = new ArrayList<>();
    List<Long> survivors = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      if (line.startsWith("survivor ")) {
        survivors.add(Long.parseLong(line.substring(9).trim()));
      }
    }
    for (String line : r.stdout().split("\n")) {
      if (line.startsWith("leftover ")) {
        String rest = line.substring(9);
        int sp = rest.indexOf(' ');
        long pid = Long.parseLong(sp < 0 ? rest : rest.substring(0, sp));
        String cmd = sp < 0 ? "" : rest.substring(sp + 1).trim();
        found.add(new Leftover(shell.node(), pid, cmd, survivors.contains(pid)));
      }
    }
    String err =
        r.exitCode() == 0 ? null : "reaper exited " + r.exitCode() + ": " + r.stderr().strip();
    return new Reaped(shell.node(), found, err);
  }
}
