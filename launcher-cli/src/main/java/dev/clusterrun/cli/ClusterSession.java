package dev.clusterrun.cli;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.FanOut;
import dev.clusterrun.core.remote.HeadDetector;
import dev.clusterrun.core.remote.LocalNodeShell;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.NodeShells;
import dev.clusterrun.core.remote.SshConfigResolver;
import dev.clusterrun.core.spec.SshSpec;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every node's shell for one command: SSH to the others in parallel, a local shell for the head
 * (the machine clusterrun runs on), which joins even when the hostfile does not list it.
 */
final class ClusterSession implements AutoCloseable {
  final NodeShells nodeShells;
  final String head;
  final Map<String, NodeShell> shells;
  final Map<String, String> unreachable;
  final int fanout;
  private final LocalNodeShell extraHead;

  private ClusterSession(
      NodeShells ns,
      String head,
      Map<String, NodeShell> shells,
      Map<String, String> unreachable,
      int fanout,
      LocalNodeShell extraHead) {
    this.nodeShells = ns;
    this.head = head;
    this.shells = shells;
    this.unreachable = unreachable;
    this.fanout = fanout;
    this.extraHead = extraHead;
  }

  static ClusterSession open(Hostfile hostfile, SshSpec ssh, Progress progress)
      throws InterruptedException {
    int fanout = ssh.fanout() == null ? FanOut.DEFAULT_PARALLELISM : ssh.fanout();
    SshConfigResolver resolver = SshConfigResolver.system(ssh);
    FanOut fan = new FanOut(fanout);
    progress.phase("connecting", hostfile.names());
    NodeShells ns =
        NodeShells.open(
            hostfile.names(),
            HeadDetector.forThisMachine(),
            resolver::resolve,
            fan,
            new FanOut.Listener() {
              @Override
              public void finished(String node, List<String> pending) {
                progress.pending("connecting", pending);
              }
            });
    progress.done("connecting");
    Map<String, NodeShell> shells = new LinkedHashMap<>(ns.shells());
    Map<String, String> down = new LinkedHashMap<>();
    for (NodeShells.Unreachable u : ns.unreachable()) {
      down.put(u.node(), u.problem());
    }
    String head;
    LocalNodeShell extra = null;
    if (ns.head().isPresent()) {
      head = ns.head().get();
    } else {
      head = localHostname();
      extra = new LocalNodeShell(head);
      shells.put(head, extra);
    }
    for (String note : ns.notes()) {
      progress.note(note);
    }
    return new ClusterSession(ns, head, shells, down, fanout, extra);
  }

  static String localHostname() {
    try {
      String h = java.net.InetAddress.getLocalHost().getHostName();
      int dot = h.indexOf('.');
      return dot > 0 ? h.substring(0, dot) : h;
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  @Override
  public void close() {
    nodeShells.close();
    if (extraHead != null) {
      extraHead.close();
    }
  }

  /**
   * Progress for people on stderr: which nodes are still pending, updated in place on a terminal.
   */
  static final class Progress {
    private final PrintWriter err;
    private final boolean live;
    private boolean dirty;

    Progress(PrintWriter err, boolean live) {
      this.err = err;
      this.live = live;
    }

    static Progress forTerminal(PrintWriter err) {
      return new Progress(err, System.console() != null);
    }

    synchronized void phase(String what, List<String> nodes) {
      pending(what, nodes);
    }

    synchronized void pending(String what, List<String> pending) {
      if (!live) {
        return;
      }
      String list =
          pending.size() <= 6
              ? String.join(" ", pending)
              : String.join(" ", pending.subList(0, 6)) + " … (+" + (pending.size() - 6) + ")";
      err.print(
          "\r\033[2Kclusterrun: "
              + what
              + ": waiting for "
              + pending.size()
              + (pending.size() == 1 ? " node" : " nodes")
              + (pending.isEmpty() ? "" : ": " + list));
      err.flush();
      dirty = true;
    }

    synchronized void done(String what) {
      if (dirty) {
        err.print("\r\033[2K");
        err.flush();
        dirty = false;
      }
    }

    synchronized void note(String line) {
      done("");
      err.println("clusterrun: " + line);
    }
  }
}
