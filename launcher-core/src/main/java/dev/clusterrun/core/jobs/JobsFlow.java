package dev.clusterrun.core.jobs;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.cleanup.RunProcesses;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.ShellScript;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.SshSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Job control without a daemon: {@code ps} and {@code stop} ask every node, in parallel through one
 * {@link Session}, for the processes that carry a run id ({@link RunScan}); nothing else keeps
 * track of runs.
 */
public final class JobsFlow {
  /** How long a scan or a signal round may take on one node. */
  static final Duration ROUND = Duration.ofSeconds(30);

  /** How long the head's mpirun has to stop its daemons after the signal. */
  static final int GRACE_TENTHS = 100;

  /** Signals {@code stop --signal} takes, by name (a number is taken as it is). */
  static final Set<String> SIGNALS = Set.of("INT", "TERM", "HUP", "QUIT", "KILL", "USR1", "USR2");

  private JobsFlow() {}

  /** {@code clusterrun ps}. */
  /**
   * {@code clusterrun ps}.
   *
   * @param workspace where the runs' directories are (each run's time limit, {@link
   *     RunDirectories#TIME_LIMIT})
   */
  public record PsRequest(Hostfile hostfile, SshSpec ssh, Path workspace) {}

  /** {@code clusterrun stop}. */
  public record StopRequest(
      Hostfile hostfile, SshSpec ssh, String runId, String signal, Path workspace) {}

  /** Every run alive on the nodes: one round per node. */
  public static PsOutcome ps(PsRequest rq, Progress progress) throws InterruptedException {
    try (Session s = Session.open(rq.hostfile(), rq.ssh(), progress)) {
      return new PsOutcome(
          RunList.of(scan(s, null), s.unreachable())
              .withTimeLimits(id -> RunDirectories.timeLimitEnds(rq.workspace(), id)));
    }
  }

  /**
   * {@code clusterrun logs}: the run's output copied to the job's streams of {@code console}, as
   * the run kept it ({@link RunLogs}).
   */
  public static LogsOutcome logs(RunLogs.Request rq, Console console)
      throws IOException, InterruptedException {
    return new RunLogs(console.out(), console.err(), RunLogs.Pause.REAL).show(rq);
  }

  private static List<RunScan.Node> scan(Session s, String runId) throws InterruptedException {
    String script = RunScan.script(runId);
    Map<String, RunScan.Node> answers =
        s.onEveryShell(sh -> RunScan.parse(sh.node(), sh.run(script, ROUND)));
    return new ArrayList<>(answers.values());
  }

  /** The signal's name for {@code kill -SIG}: a known name (SIG prefix optional) or a number. */
  public static String signal(String given) {
    String g = given == null ? "INT" : given.trim().toUpperCase(Locale.ROOT);
    if (g.startsWith("SIG")) {
      g = g.substring(3);
    }
    if (SIGNALS.contains(g) || g.matches("[0-9]{1,2}")) {
      return g;
    }
    throw new BadInputException(
        "--signal",
        "'"
            + given
            + "' is not a signal; give one of "
            + String.join(", ", SIGNALS.stream().sorted().toList())
            + " or a number");
  }

  /**
   * Ends one run as Ctrl-C on its clusterrun would: its head's mpirun gets the signal (Open MPI
   * then stops its daemons), then every process left with the run id on every node gets SIGTERM,
   * and SIGKILL after two seconds ({@link RemoteReaper}); a last round makes sure none is left.
   *
   * @throws BadInputException naming the run id when no node runs it and the workspace has no run
   *     of it
   */
  public static StopOutcome stop(StopRequest rq, Progress progress) throws InterruptedException {
    String sig = signal(rq.signal());
    try (Session s = Session.open(rq.hostfile(), rq.ssh(), progress)) {
      Map<String, String> down = new LinkedHashMap<>(s.unreachable());
      Map<String, ExecResult> first =
          s.onEveryShell(sh -> sh.run(signalScript(rq.runId(), sig), ROUND));
      Map<String, List<Long>> signalled = new LinkedHashMap<>();
      int found = 0;
      for (Map.Entry<String, ExecResult> e : first.entrySet()) {
        ExecResult r = e.getValue();
        if (r.error() != null) {
          down.put(e.getKey(), r.error());
          continue;
        }
        for (String line : r.stdout().split("\n")) {
          String[] f = line.trim().split("\\s+");
          if (f[0].equals("found") && f.length == 2) {
            found += Integer.parseInt(f[1]);
          } else if (f[0].equals("signalled")) {
            List<Long> pids = new ArrayList<>();
            for (int i = 1; i < f.length; i++) {
              pids.add(Long.parseLong(f[i]));
            }
            signalled.put(e.getKey(), pids);
          }
        }
      }
      Path dir = rq.workspace() == null ? null : RunDirectories.find(rq.workspace(), rq.runId());
      if (found == 0 && dir == null && down.isEmpty()) {
        throw new BadInputException(
            rq.runId(),
            "no run of that id: no node of "
                + rq.hostfile().source()
                + " runs it"
                + (rq.workspace() == null
                    ? ""
                    : ", and the workspace " + rq.workspace() + " has no run directory of it"));
      }
      List<RemoteReaper.Reaped> reaped = new ArrayList<>();
      Map<String, Integer> left = new LinkedHashMap<>();
      if (found > 0) {
        reaped.addAll(
            s.onEveryShellExcept(down.keySet(), sh -> RemoteReaper.reap(sh, rq.runId(), ROUND))
                .values());
        String check = checkScript(rq.runId());
        s.onEveryShellExcept(down.keySet(), sh -> sh.run(check, ROUND))
            .forEach(
                (n, r) -> {
                  if (r.error() != null) {
                    down.put(n, r.error());
                  } else if (!r.stdout().isBlank()) {
                    left.put(n, r.stdout().trim().split("\\s+").length);
                  }
                });
      }
      return new StopOutcome(rq.runId(), sig, found, signalled, reaped, left, down, dir);
    }
  }

  private static final ShellScript SIGNAL =
      RunProcesses.before(ShellScript.load(JobsFlow.class, "stop-signal.sh"));

  private static final ShellScript CHECK =
      RunProcesses.before(ShellScript.load(JobsFlow.class, "stop-check.sh"));

  /**
   * The first round of {@code stop} on a node ({@code stop-signal.sh}): how many processes of the
   * run it has, and the signal to the run's mpirun there (only the head has one), whose end it
   * waits for.
   */
  static String signalScript(String runId, String sig) {
    return SIGNAL.with(List.of(runId, sig, Integer.toString(GRACE_TENTHS)));
  }

  /** The last round of {@code stop} on a node ({@code stop-check.sh}): the PIDs of the run left. */
  static String checkScript(String runId) {
    return CHECK.with(List.of(runId));
  }
}
