package dev.clusterrun.core.jobs;

import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.Json;
import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code stop} did: which mpirun got the signal, what was ended on which node, what is left
 * and which nodes could not be asked.
 *
 * @param found processes of the run on the nodes that answered, before the signal
 * @param signalled the node of the run's mpirun and its PIDs (the head), or empty
 * @param left processes of the run still there at the end, by node
 * @param unreachable nodes that could not be asked, and why
 * @param runDir the run's directory in the workspace, or null
 */
public record StopOutcome(
    String runId,
    String signal,
    int found,
    Map<String, List<Long>> signalled,
    List<RemoteReaper.Reaped> reaped,
    Map<String, Integer> left,
    Map<String, String> unreachable,
    Path runDir) {
  public StopOutcome {
    signalled = Collections.unmodifiableMap(new LinkedHashMap<>(signalled));
    reaped = List.copyOf(reaped);
    left = Collections.unmodifiableMap(new LinkedHashMap<>(left));
    unreachable = Collections.unmodifiableMap(new LinkedHashMap<>(unreachable));
  }

  /** Whether every node answered and none has a process of the run left. */
  public boolean gone() {
    return unreachable.isEmpty() && left.isEmpty();
  }

  /** 0 when the run is gone from every node; 3 when a node could not be asked or kept some. */
  public int exitCode() {
    return gone() ? ExitCode.OK.value() : ExitCode.CHECK_FAILED.value();
  }

  /** What happened, for people: one line each. */
  public List<String> lines() {
    List<String> l = new ArrayList<>();
    if (found == 0 && unreachable.isEmpty()) {
      l.add(
          "run "
              + runId
              + " runs on no node"
              + (runDir == null
                  ? ""
                  : (RunDirectories.ended(runDir) ? " (it has ended; " : " (")
                      + "run directory "
                      + runDir
                      + ")"));
      return l;
    }
    signalled.forEach(
        (n, pids) -> l.add("run " + runId + ": mpirun on " + n + " got SIG" + signal + " " + pids));
    List<String> ended = new ArrayList<>();
    int killed = 0;
    for (RemoteReaper.Reaped r : reaped) {
      if (!r.leftovers().isEmpty()) {
        ended.add(r.node() + " (" + r.leftovers().size() + ")");
      }
      for (RemoteReaper.Leftover o : r.leftovers()) {
        killed += o.neededKill() ? 1 : 0;
      }
    }
    if (!ended.isEmpty()) {
      l.add(
          "run "
              + runId
              + ": ended what was left on "
              + String.join(", ", ended)
              + (killed > 0 ? "; " + killed + " needed SIGKILL" : ""));
    }
    unreachable.forEach((n, p) -> l.add(n + ": " + p));
    left.forEach((n, c) -> l.add(n + ": " + c + " process(es) of run " + runId + " still there"));
    l.add(
        gone()
            ? "run " + runId + " is gone from every node"
            : "run " + runId + " may still run on " + String.join(", ", notGone()));
    return l;
  }

  private List<String> notGone() {
    List<String> n = new ArrayList<>(unreachable.keySet());
    n.addAll(left.keySet());
    return n;
  }

  public String renderJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("runId", runId);
    m.put("signal", signal);
    m.put("found", found);
    m.put("signalled", signalled);
    Map<String, Object> ended = new LinkedHashMap<>();
    for (RemoteReaper.Reaped r : reaped) {
      List<Map<String, Object>> procs = new ArrayList<>();
      for (RemoteReaper.Leftover o : r.leftovers()) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("pid", o.pid());
        p.put("command", o.command());
        p.put("neededKill", o.neededKill());
        procs.add(p);
      }
      ended.put(r.node(), procs);
    }
    m.put("ended", ended);
    m.put("left", left);
    m.put("unreachable", unreachable);
    m.put("gone", gone());
    m.put("runDir", runDir == null ? null : runDir.toString());
    return Json.pretty(m);
  }
}
