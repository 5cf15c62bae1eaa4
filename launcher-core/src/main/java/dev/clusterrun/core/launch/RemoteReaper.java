package dev.clusterrun.core.launch;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
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

  /** The script run on a node; exposed for tests. */
  public static String script(String runId) {
    // The processes as every command finds them (RunProcesses: one grep over every environment
    // and one over every command line), here on the whole node: PIDs only, never patterns.
    return String.join(
        "\n",
        RunProcesses.find(runId, false) + RunProcesses.pids() + "found=$pids",
        "for p in $found; do",
        "  c=$( { tr '\\000' ' ' < /proc/$p/cmdline; } 2>/dev/null | cut -c1-300)",
        "  printf 'leftover %s %s\\n' \"$p\" \"$c\"",
        "done",
        "[ -n \"$found\" ] || exit 0",
        "kill -TERM $found 2>/dev/null",
        "i=0",
        "while [ $i -lt 20 ]; do",
        "  alive=''",
        "  for p in $found; do [ -d /proc/$p ] && alive=\"$alive $p\"; done",
        "  [ -z \"$alive\" ] && exit 0",
        "  sleep 0.1; i=$((i+1))",
        "done",
        "for p in $alive; do printf 'survivor %s\\n' \"$p\"; done",
        "kill -KILL $alive 2>/dev/null",
        "exit 0",
        "");
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
