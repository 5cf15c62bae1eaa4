package dev.clusterrun.core.jobs;

import dev.clusterrun.core.launch.cleanup.RunProcesses;
import dev.clusterrun.core.launch.head.HeadMark;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one node runs of clusterrun's runs, in one round: the processes {@link RunProcesses} finds
 * in the node's own network namespace, each with its parent, start and command, and for the head's
 * mpirun whether the clusterrun named by its {@link HeadMark} still lives.
 */
public final class RunScan {
  /** One process of a run on a node. */
  public record Proc(long pid, long ppid, long startTicks, String runId, String comm, String cmd) {}

  /**
   * A head's mark found on the node: the clusterrun process (PID, start ticks) and whether it
   * lives.
   */
  public record Head(String runId, long pid, long startTicks, boolean alive) {}

  /**
   * A node's answer.
   *
   * @param bootSeconds the node's boot time (seconds since the epoch), for process start times
   * @param ticksPerSecond the node's clock ticks per second
   * @param error why the node could not be asked, or null
   */
  public record Node(
      String node,
      String user,
      long bootSeconds,
      long ticksPerSecond,
      List<Proc> procs,
      List<Head> heads,
      String error) {
    public Node {
      procs = List.copyOf(procs);
      heads = List.copyOf(heads);
    }

    /** The node could not be asked. */
    public static Node failed(String node, String error) {
      return new Node(node, null, 0, 100, List.of(), List.of(), error);
    }

    /** When a process of this node started, in seconds since the epoch. */
    public double startSeconds(Proc p) {
      return bootSeconds + (double) p.startTicks() / Math.max(1, ticksPerSecond);
    }
  }

  private RunScan() {}

  private static final ShellScript SCRIPT =
      RunProcesses.before(ShellScript.load(RunScan.class, "run-scan.sh"));

  /**
   * The script run on every node ({@code run-scan.sh} with the run's processes before it; {@code
   * runId} null: every run).
   */
  public static String script(String runId) {
    return SCRIPT.with(List.of(runId == null ? "" : runId));
  }

  /** A node's answer to {@link #script}. */
  public static Node parse(String node, ExecResult r) {
    if (r.error() != null) {
      return Node.failed(node, r.error());
    }
    if (r.exitCode() != 0) {
      return Node.failed(node, "the scan exited " + r.exitCode() + ": " + r.stderr().strip());
    }
    String user = null;
    long boot = 0;
    long hz = 100;
    List<Proc> procs = new ArrayList<>();
    List<Head> heads = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.split("\t", -1);
      try {
        if (f[0].equals("node") && f.length >= 4) {
          user = f[1];
          boot = Long.parseLong(f[2]);
          hz = Long.parseLong(f[3]);
        } else if (f[0].equals("proc") && f.length >= 7) {
          String cmd = String.join("\t", Arrays.asList(f).subList(6, f.length)).strip();
          procs.add(
              new Proc(
                  Long.parseLong(f[1]),
                  Long.parseLong(f[2]),
                  Long.parseLong(f[3]),
                  f[4],
                  f[5],
                  cmd));
        } else if (f[0].equals("head") && f.length >= 5) {
          heads.add(
              new Head(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), f[4].equals("alive")));
        }
      } catch (NumberFormatException e) {
        // a line cut short (a process ended while it was read): the others still count
      }
    }
    if (user == null) {
      return Node.failed(node, "the scan gave no answer: " + r.stderr().strip());
    }
    return new Node(node, user, boot, hz, procs, heads, null);
  }
}
