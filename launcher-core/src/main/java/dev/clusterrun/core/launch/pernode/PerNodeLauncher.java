package dev.clusterrun.core.launch.pernode;

import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.container.ContainerPreparer;
import dev.clusterrun.core.launch.io.LineLabels;
import dev.clusterrun.core.launch.plan.PerNodePlan;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.run.Ending;
import dev.clusterrun.core.launch.run.Launcher;
import dev.clusterrun.core.launch.run.RunContext;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.output.Counted;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.core.session.InputPump;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * {@code --launcher=per-node}: the command once on every node of the hostfile, each inside the
 * job's container on that node ({@link PerNodePlan}), over the session's open shells (the head's
 * locally). The rendezvous port is picked on the first node first. Output streams live, line by
 * line, labelled with its node when asked, and is kept per node in the run directory.
 *
 * <p>The first node to fail gives the run its exit code; the others are then stopped (unless {@code
 * --keep-going}) by the same search by run id that cleans up after every run ({@link
 * RemoteReaper}): every process of the run carries {@code CLUSTERRUN_RUN_ID}, in its environment or
 * its command line. Ctrl-C stops every node the same way.
 */
public final class PerNodeLauncher implements Launcher {
  static final Duration PORT_TIMEOUT = Duration.ofSeconds(30);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  /** How one node's process ended. */
  record NodeEnd(String node, int exitCode, String error, boolean stopped) {}

  private final IntFunction<Plan> planFor;
  private final boolean keepGoing;
  private final Boolean label;
  private volatile RunContext current;
  private volatile boolean interrupted;
  private final AtomicReference<NodeEnd> firstFailure = new AtomicReference<>();
  private volatile boolean stopping;
  private String stdin = "0";

  /**
   * @param planFor the plan for a rendezvous port picked on the first node
   * @param label label each line with its node; null: when there is more than one node
   * @param keepGoing let the other nodes finish when one fails
   */
  public PerNodeLauncher(IntFunction<Plan> planFor, Boolean label, boolean keepGoing) {
    this.planFor = planFor;
    this.label = label;
    this.keepGoing = keepGoing;
  }

  /**
   * Which node gets clusterrun's standard input over its session ({@code --stdin}): {@code 0} (the
   * first node), another node's index in the hostfile, or {@code none}.
   */
  public void input(String target) {
    this.stdin = target;
  }

  /** Each node's start is a command over its own SSH session, which sshd never signals. */
  @Override
  public boolean tiesEveryNode() {
    return true;
  }

  @Override
  public void interrupt() {
    interrupted = true;
    RunContext run = current;
    if (run != null) {
      stop(run, null);
    }
  }

  @Override
  public Ending launch(RunContext run) throws IOException, InterruptedException {
    Plan first = run.plan();
    String master = first.perNode().get(0).node();
    NodeShell masterShell = run.session().shells().get(master);
    ExecResult answer = masterShell.run(PerNodePlan.portScript(), PORT_TIMEOUT);
    Integer port = answer.ok() ? PerNodePlan.parsePort(answer.stdout()) : null;
    if (port == null) {
      run.tookPreparing();
      run.note(
          "could not pick a free port on "
              + master
              + ": "
              + (answer.error() != null
                  ? answer.error()
                  : ContainerPreparer.firstLine(answer.stderr())));
      return Ending.of(RunEnd.PREPARE_FAILED);
    }
    run.plan(planFor.apply(port));
    Plan plan = run.plan();
    run.writeRunFiles();
    run.tookPreparing();
    if (interrupted) {
      return Ending.of(RunEnd.INTERRUPTED);
    }

    long t = System.nanoTime();
    boolean labelled = label == null ? plan.perNode().size() > 1 : label;
    run.say(
        "running the command once on each of "
            + plan.perNode().size()
            + (plan.perNode().size() == 1 ? " node" : " nodes")
            + ", rendezvous "
            + master
            + ":"
            + port
            + (keepGoing ? " (--keep-going)" : ""));
    current = run;
    List<NodeEnd> ends;
    try {
      ends =
          run.session()
              .fanOut()
              .map(
                  plan.perNode().stream().map(PerNodePlan.NodeStart::node).toList(),
                  node -> runNode(run, plan, node, labelled));
    } finally {
      current = null;
    }
    run.took("job", t);
    if (interrupted) {
      return Ending.of(RunEnd.INTERRUPTED);
    }
    NodeEnd failed = firstFailure.get();
    if (failed == null) {
      return Ending.of(RunEnd.SUCCEEDED);
    }
    List<String> others = new ArrayList<>();
    for (NodeEnd e : ends) {
      if (e != failed && e.exitCode() != 0) {
        others.add(e.node() + (e.stopped() ? " (stopped)" : " (exit " + e.exitCode() + ")"));
      }
    }
    run.note(
        failed.node()
            + " failed first"
            + (failed.error() != null ? ": " + failed.error() : " (exit " + failed.exitCode() + ")")
            + (others.isEmpty() ? "" : "; then " + String.join(", ", others)));
    return new Ending(RunEnd.FAILED, failed.exitCode() > 0 ? failed.exitCode() : 255);
  }

  /** One node's process, from start to end; a failure stops the others unless keep-going. */
  private NodeEnd runNode(RunContext run, Plan plan, String node, boolean labelled) {
    PerNodePlan.NodeStart start =
        plan.perNode().stream().filter(s -> s.node().equals(node)).findFirst().orElseThrow();
    if (interrupted || stopping) {
      return new NodeEnd(node, -1, null, true);
    }
    NodeShell shell = run.session().shells().get(node);
    ExecResult r;
    try (OutputStream so =
            new Counted(Files.newOutputStream(Path.of(start.stdoutLog())), run.outputBytes(false));
        OutputStream se =
            new Counted(Files.newOutputStream(Path.of(start.stderrLog())), run.outputBytes(true));
        OutputStream out = new LineLabels(run.console().out(), labelled ? node : null);
        OutputStream err = new LineLabels(run.console().err(), labelled ? node : null)) {
      r =
          takesInput(plan, node)
              ? shell.stream(
                  script(start, System.getenv()),
                  new Tee(out, so),
                  new Tee(err, se),
                  in -> InputPump.start(run.console().in(), in))
              : shell.stream(script(start, System.getenv()), new Tee(out, so), new Tee(err, se));
    } catch (IOException | RuntimeException e) {
      // Failures are data: the node's end says why, the other nodes are stopped as for any.
      r = ExecResult.failed(node + ": " + e.getMessage(), Duration.ZERO);
    }
    // Stopped: it ended after Ctrl-C or after another node failed first.
    boolean stopped = interrupted || stopping;
    int code = r.exitCode();
    String error = r.error() == null || code > 0 ? null : r.error();
    if (error != null && error.startsWith(node + ": ")) {
      error = error.substring(node.length() + 2);
    }
    NodeEnd end = new NodeEnd(node, code, error, stopped);
    if ((code != 0 || r.error() != null) && !interrupted && !end.stopped()) {
      if (firstFailure.compareAndSet(null, end)) {
        run.say(
            node
                + (end.error() != null ? ": " + end.error() : ": exited " + code)
                + (keepGoing ? "; the other nodes go on (--keep-going)" : "; stopping the others"));
        if (!keepGoing) {
          stop(run, node);
        }
      }
    }
    return end;
  }

  /** Whether {@code node} is the one {@code --stdin} names. */
  private boolean takesInput(Plan plan, String node) {
    if (stdin.equals("none") || stdin.equals("all")) {
      return false;
    }
    int i = Integer.parseInt(stdin);
    return i < plan.perNode().size() && plan.perNode().get(i).node().equals(node);
  }

  /** Stops the run's processes on every node but {@code except}, by run id. */
  private void stop(RunContext run, String except) {
    stopping = true;
    String runId = run.plan().runId();
    for (Map.Entry<String, NodeShell> e : run.session().shells().entrySet()) {
      if (!e.getKey().equals(except)) {
        RemoteReaper.reap(e.getValue(), runId, STOP_TIMEOUT);
      }
    }
  }

  /**
   * The script run on the node: the start's words, with the head's value of each {@code
   * container.env-from-host} variable put into {@code env} (never into the plan), quoted with
   * {@link ShellQuote}.
   */
  public static String script(PerNodePlan.NodeStart start, Map<String, String> headEnv) {
    List<String> argv = new ArrayList<>(start.argv());
    int enroot = argv.indexOf("enroot");
    List<String> fromHost = new ArrayList<>();
    for (int i = Math.max(0, enroot); enroot >= 0 && i < argv.size() - 1; i++) {
      if (argv.get(i).equals("--env") && !argv.get(i + 1).contains("=")) {
        fromHost.add(argv.get(i + 1));
      }
    }
    int at = 1;
    for (String n : fromHost) {
      String v = headEnv.get(n);
      if (v != null) {
        argv.add(at++, n + "=" + v);
      }
    }
    return "exec " + ShellQuote.join(argv);
  }

  /** Copies to two streams, flushing each write so output is live. */
  static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int x) throws IOException {
      a.write(x);
      b.write(x);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      a.flush();
      b.write(buf, off, len);
      b.flush();
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }
}
