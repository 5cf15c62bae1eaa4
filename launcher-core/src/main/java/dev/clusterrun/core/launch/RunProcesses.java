package dev.clusterrun.core.launch;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.remote.ShellQuote;

/**
 * The one way clusterrun finds a run's processes on a node: every process of the job user that
 * carries {@code CLUSTERRUN_RUN_ID=ID} in its environment (the launch agent puts it there for every
 * remote daemon, the head's {@code enroot start} for mpirun, and the ranks inherit it) or as a word
 * of its command line (the head's {@code ssh} to a node while it starts the daemon there). One
 * {@code grep} over every process's environment and one over every command line: reading a few
 * processes per PID took seconds on a node with hundreds.
 *
 * <p>The variable's name never appears in the script's text (it is put together when the script
 * runs, and reaches grep on its standard input): the shell running the script, and the login shell
 * around it, must not look like a process of a run.
 */
public final class RunProcesses {
  /**
   * The characters of a run id ({@code <time>-<job>-<hex>}, job names are {@code [A-Za-z0-9._-]}).
   */
  static final String ID_CHARS = "[A-Za-z0-9._-]";

  private RunProcesses() {}

  /**
   * Shell that sets {@code found} to the words {@code PID:RUN_ID}, one per process of the job user
   * (not the script's own shell) carrying a run id; only {@code runId}'s when it is not null.
   *
   * @param sameNetwork only processes in the script's own network namespace: nodes that share one
   *     PID space (namespace nodes on one machine) then each see only their own; on a real node
   *     every process of a job is in the node's namespace (enroot makes no network namespace)
   */
  public static String find(String runId, boolean sameNetwork) {
    return String.join(
        "\n",
        "want=" + (runId == null ? "''" : ShellQuote.quote(runId)),
        // CLUSTERRUN_RUN_ID, put together at run time.
        "v="
            + LaunchAgent.RUN_ID_VAR.substring(0, 11)
            + "; v=${v}"
            + LaunchAgent.RUN_ID_VAR.substring(11),
        "me=$$",
        "net=$(readlink /proc/$me/ns/net 2>/dev/null)",
        "found=''",
        "for e in $( { printf '^%s="
            + ID_CHARS
            + "+$\\n' \"$v\" | grep -zoEH -f - /proc/[0-9]*/environ;",
        "            printf '%s="
            + ID_CHARS
            + "+\\n' \"$v\" | grep -zoEH -f - /proc/[0-9]*/cmdline;"
            + " } 2>/dev/null | tr '\\000' '\\n'); do",
        "  f=${e%%:*}",
        "  id=${e#*:}",
        "  id=${id#*=}",
        "  [ -n \"$id\" ] || continue",
        "  [ -z \"$want\" ] || [ \"$id\" = \"$want\" ] || continue",
        "  d=${f%/*}",
        "  p=${d#/proc/}",
        "  [ \"$p\" = \"$me\" ] && continue",
        "  [ -O \"$d\" ] || continue",
        sameNetwork
            ? "  [ \"$(readlink \"$d/ns/net\" 2>/dev/null)\" = \"$net\" ] || continue"
            : "  :",
        "  case \" $found \" in *\" $p:\"*) continue ;; esac",
        "  found=\"$found $p:$id\"",
        "done",
        "");
  }

  /** Shell that sets {@code pids} to the PIDs of {@code found} ({@link #find}). */
  public static String pids() {
    return "pids=''\nfor e in $found; do pids=\"$pids ${e%%:*}\"; done\n";
  }
}
