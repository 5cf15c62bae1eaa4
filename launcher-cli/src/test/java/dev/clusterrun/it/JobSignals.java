package dev.clusterrun.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A clusterrun run on node1 (the head) in the middle of its job, a signal sent to clusterrun's own
 * process, and what the run leaves on the nodes, found by its run id in every process's
 * environment: one place for the ITs that stop a run by a signal.
 */
final class JobSignals {
  private JobSignals() {}

  /**
   * A run in the middle of its job.
   *
   * @param pid clusterrun's process (the JVM: the launcher execs java)
   * @param runId the run id every process of the job carries
   */
  record Running(CompletableFuture<Result> result, String pid, String runId) {}

  /**
   * What a terminal's shell gives a command it starts: SIGHUP, SIGINT and SIGTERM at their default
   * disposition, whatever the test runner inherited (a build started under {@code nohup} ignores
   * SIGHUP, and an ignored signal stays ignored across exec, which {@code sh} cannot undo). Perl
   * (Debian's essential perl-base) resets them and execs the command in the same process.
   */
  private static final List<String> AS_FROM_A_TERMINAL =
      List.of(
          "perl",
          "-e",
          "$SIG{$_} = 'DEFAULT' for qw(HUP INT TERM); exec {$ARGV[0]} @ARGV or die \"$ARGV[0]: $!\\n\"",
          "--");

  /**
   * Starts {@code argv} (clusterrun and its arguments) as the job user on node1 from {@code dir},
   * as a shell at a terminal starts it (SIGHUP, SIGINT and SIGTERM not ignored), and waits until
   * {@code count} processes run exactly {@code job} (e.g. {@code sleep 987}), each carrying one and
   * the same {@code CLUSTERRUN_RUN_ID} in its environment.
   */
  static Running start(LocalCluster c, String dir, List<String> argv, String job, int count)
      throws Exception {
    String pidFile = "/tmp/job-signals-it.pid";
    List<String> command = new ArrayList<>(AS_FROM_A_TERMINAL);
    command.addAll(argv);
    String script =
        "cd "
            + ShellQuote.quote(dir)
            + " && echo $$ > "
            + pidFile
            + " && exec "
            + ShellQuote.join(command);
    CompletableFuture<Result> running =
        CompletableFuture.supplyAsync(
            () ->
                c.exec("node1", false, null, Duration.ofSeconds(150), List.of("sh", "-c", script)));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    List<String> found = List.of();
    while (System.nanoTime() < deadline && !running.isDone()) {
      found = jobProcesses(c, job);
      if (found.size() >= count) {
        break;
      }
      Thread.sleep(300);
    }
    assertThat(found)
        .as("`%s` on every node (%s)", job, running.isDone() ? running.get() : "running")
        .hasSize(count);
    TreeSet<String> ids = new TreeSet<>();
    for (String p : found) {
      ids.add(runIdOf(c, p.split(" ")[0]));
    }
    assertThat(ids).as("the run id in the environment of each `%s`", job).hasSize(1);
    String runId = ids.first();
    assertThat(runId).as("CLUSTERRUN_RUN_ID of `%s`", job).isNotEmpty();
    String pid = c.exec("node1", "cat", pidFile).out();
    return new Running(running, pid, runId);
  }

  /**
   * Whether the run's clusterrun still runs and the {@code count} processes of its job are still
   * there (each exactly {@code job}).
   */
  static boolean stillRunning(LocalCluster c, Running r, String job, int count) {
    return !r.result().isDone() && jobProcesses(c, job).size() == count;
  }

  /** Sends {@code signal} (a name: INT, TERM, HUP, KILL) to clusterrun's own process. */
  static void send(LocalCluster c, Running r, String signal) {
    Result k = c.exec("node1", true, "kill", "-" + signal, r.pid());
    assertThat(k.exitCode()).as("kill -%s %s: %s", signal, r.pid(), k).isZero();
  }

  /**
   * Each process on {@code node} whose environment holds {@code CLUSTERRUN_RUN_ID=runId} (the nodes
   * share one process table; each is asked anyway), as {@code PID COMMAND LINE}; zombies (dead, not
   * yet reaped) are not counted. One grep reads every environment: a shell loop forking a few
   * commands per process took 5.7 s per node on a loaded 2-core machine (load 6), long enough for a
   * process seen early in the loop to be gone by its end.
   */
  static List<String> marked(LocalCluster c, String node, String runId) {
    String script =
        String.join(
            "\n",
            "for f in $(grep -lzxF \"CLUSTERRUN_RUN_ID=$1\" /proc/[0-9]*/environ 2>/dev/null); do",
            "  d=${f%/environ}",
            "  [ \"${d#/proc/}\" = $$ ] && continue",
            "  st=$(sed 's/.*) //' \"$d/stat\" 2>/dev/null | cut -d' ' -f1)",
            "  [ -n \"$st\" ] && [ \"$st\" != Z ] || continue",
            "  echo \"${d#/proc/} $(tr '\\000' ' ' < \"$d/cmdline\" 2>/dev/null)\"",
            "done",
            "exit 0");
    return lines(c.exec(node, true, "sh", "-c", script, "marked", runId));
  }

  /**
   * Waits up to {@code within} for no container begun during the checks ({@code warm-hold.sh}: its
   * shells, the container's processes, the head's ssh that carries it) to be left, of any run;
   * returns what is left then, as {@code PID COMMAND}. The local cluster's nodes share one PID
   * space: node1 sees every node's processes.
   */
  static List<String> heldAfter(LocalCluster c, Duration within) throws InterruptedException {
    String script =
        "for p in $(pgrep -u \"$(id -u)\" -f '[W]armStart|while read -r [_]; do :; done'); do"
            + " [ \"$p\" = $$ ] || echo \"$p $(tr '\\000\\n' '  ' < /proc/$p/cmdline 2>/dev/null |"
            + " cut -c1-100)\"; done; exit 0";
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      boolean late = System.nanoTime() >= deadline;
      List<String> left =
          lines(c.exec("node1", false, null, Duration.ofSeconds(30), List.of("sh", "-c", script)));
      if (left.isEmpty() || late) {
        return left;
      }
      Thread.sleep(250);
    }
  }

  /**
   * Waits up to {@code within} for no process of the run to be left on any node; returns what is
   * left then (empty when nothing). What is returned was seen by a round of every node begun after
   * {@code within}: a round that began earlier may have seen a process that its end outlived.
   */
  static List<String> leftAfter(LocalCluster c, String runId, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      boolean late = System.nanoTime() >= deadline;
      List<String> left = new ArrayList<>();
      for (String node : c.nodes()) {
        for (String p : marked(c, node, runId)) {
          left.add(node + ": " + p);
        }
      }
      if (left.isEmpty() || late) {
        return left;
      }
      Thread.sleep(250);
    }
  }

  /**
   * What a killed run leaves on the head out of its reach, and of no run (its SSH masters, which
   * end by themselves after 120 idle seconds): the tests end them.
   */
  static void endMasters(LocalCluster c) {
    c.exec(
        "node1",
        true,
        "sh",
        "-c",
        "pkill -KILL -u "
            + c.jobUser()
            + " -f '[C]ontrolPath=/dev/shm/clusterrun-ssh'; rm -rf /dev/shm/clusterrun-ssh.*");
  }

  /**
   * The job user's processes whose command line is exactly {@code job}, as {@code PID}: the nodes
   * share this machine's process table, where other users may run the same command.
   */
  private static List<String> jobProcesses(LocalCluster c, String job) {
    String script =
        "for d in /proc/[0-9]*; do [ -O \"$d\" ] || continue;"
            + " [ \"$(tr '\\000' ' ' < $d/cmdline 2>/dev/null)\" = \"$1 \" ]"
            + " && echo ${d#/proc/}; done; exit 0";
    return lines(c.exec("node1", false, "sh", "-c", script, "jobs", job));
  }

  private static String runIdOf(LocalCluster c, String pid) {
    Result r =
        c.exec(
            "node1",
            true,
            "sh",
            "-c",
            "tr '\\000' '\\n' < /proc/$1/environ | sed -n 's/^CLUSTERRUN_RUN_ID=//p'",
            "id",
            pid);
    return r.out();
  }

  private static List<String> lines(Result r) {
    List<String> out = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      if (!l.isBlank()) {
        out.add(l.strip());
      }
    }
    return out;
  }
}
