package dev.clusterrun.core.session;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.HeadDetector;
import dev.clusterrun.core.remote.LocalNodeShell;
import dev.clusterrun.core.remote.NodeConnectException;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.SshConfigResolver;
import dev.clusterrun.core.remote.SshLogins;
import dev.clusterrun.core.remote.SshMasters;
import dev.clusterrun.core.remote.SshNodeShell;
import dev.clusterrun.core.remote.SshTarget;
import dev.clusterrun.core.spec.SshSpec;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every node's shell for one command, open for the whole command: a local shell for the head (the
 * machine clusterrun runs on, which joins even when the hostfile does not list it), SSH to every
 * other node, opened in parallel; the one {@link FanOut} (sized by {@code --fanout}) through which
 * every per-node round goes; and the command's {@link Progress}. A node that cannot be reached is
 * data ({@link #unreachable()}), so a report can show it next to the nodes that answered.
 */
public final class Session implements AutoCloseable {
  private final Hostfile hostfile;
  private final String head;
  private final Map<String, NodeShell> shells;
  private final Map<String, String> unreachable;
  private final FanOut fanOut;
  private final Progress progress;
  private final List<Runnable> closers = Collections.synchronizedList(new ArrayList<>());
  private Reach reach;
  private FanOut.Task<Boolean> releasing;

  /**
   * A session over shells that are open already (tests, and callers that made their own).
   *
   * @param head the node clusterrun runs on; must be in {@code shells}
   * @param unreachable nodes that could not be reached, with the problem
   */
  public Session(
      Hostfile hostfile,
      String head,
      Map<String, NodeShell> shells,
      Map<String, String> unreachable,
      FanOut fanOut,
      Progress progress) {
    this.hostfile = hostfile;
    this.head = head;
    this.shells = Collections.unmodifiableMap(new LinkedHashMap<>(shells));
    this.unreachable = Collections.unmodifiableMap(new LinkedHashMap<>(unreachable));
    this.fanOut = fanOut;
    this.progress = progress == null ? Progress.NONE : progress;
  }

  /**
   * How the session reaches its nodes from the head before clusterrun's own SSH connections are
   * made, and what its opening round found there. {@link #DIRECT}: no node is reached that way
   * (every node over clusterrun's own SSH, whose first round is the caller's); {@link OverMasters}:
   * the head's OpenSSH logins, kept as masters, carry the opening round.
   */
  public interface Reach {
    /**
     * Shells for the nodes of {@code nodes} it reached, by name; the others get clusterrun's own
     * connection.
     *
     * @param head the head's shell
     * @param fanOut the session's fan-out, for work beside the reach ({@link FanOut#beside})
     */
    Map<String, NodeShell> reach(NodeShell head, List<String> nodes, FanOut fanOut)
        throws InterruptedException;

    /**
     * What the opening round printed on {@code node} (the head included), once: null when it did
     * not run there, or was taken already.
     */
    ExecResult firstAnswer(String node);

    /** What {@link #firstAnswer} would give for {@code node}, without taking it. */
    default ExecResult peekFirstAnswer(String node) {
      return null;
    }

    /** The head's logins to the nodes (their outcomes and masters), or null when none were made. */
    SshLogins.Result logins();

    /** How long the logins took. */
    Duration took();

    /** Ends what {@link #reach} left open; called once, when the session closes. */
    void close();

    /**
     * {@code node} stopped answering: end what holds it open on the head at once (an OpenSSH master
     * keeps the output pipes of the sessions it carries until its peer answers, which a lost node
     * never does).
     */
    void lost(String node);

    /** Every node over clusterrun's own SSH: nothing reached, no opening answer, no logins. */
    Reach DIRECT =
        new Reach() {
          @Override
          public Map<String, NodeShell> reach(NodeShell head, List<String> nodes, FanOut fanOut) {
            return Map.of();
          }

          @Override
          public ExecResult firstAnswer(String node) {
            return null;
          }

          @Override
          public SshLogins.Result logins() {
            return null;
          }

          @Override
          public Duration took() {
            return Duration.ZERO;
          }

          @Override
          public void close() {}

          @Override
          public void lost(String node) {}
        };
  }

  /**
   * Opens a shell to every node of the hostfile through the user's OpenSSH configuration and the
   * explicit settings {@code ssh}; the head is found among them or added.
   *
   * @throws InterruptedException when interrupted; connections already open are closed
   */
  public static Session open(Hostfile hostfile, SshSpec ssh, Progress progress)
      throws InterruptedException {
    return open(hostfile, ssh, progress, null);
  }

  /**
   * {@link #open(Hostfile, SshSpec, Progress)}, the nodes reached over the head's OpenSSH logins
   * kept as {@code masters}, which carry the opening round (null: every node over clusterrun's own
   * SSH).
   */
  public static Session open(Hostfile hostfile, SshSpec ssh, Progress progress, SshMasters masters)
      throws InterruptedException {
    Reach reach = masters == null ? null : new OverMasters(masters);
    int fanout = ssh.fanout() == null ? FanOut.DEFAULT_PARALLELISM : ssh.fanout();
    // At most one task per node, the head (when the hostfile does not list it) and one beside.
    FanOut fan = new FanOut(Math.min(fanout, hostfile.hosts().size() + 2));
    SshConfigResolver resolver = SshConfigResolver.system(ssh);
    try {
      return open(hostfile, HeadDetector.forThisMachine(), resolver::resolve, fan, progress, reach);
    } catch (InterruptedException | RuntimeException e) {
      fan.close();
      throw e;
    }
  }

  /**
   * Opens a shell to every host of the hostfile, in parallel through {@code fanOut}, which the
   * session then owns.
   *
   * @param head decides which name is this machine; that one runs locally
   * @param targets resolves a name to its SSH settings, e.g. {@link SshConfigResolver#resolve}
   * @param reach reaches nodes from the head first (null for none); the session closes it
   */
  public static Session open(
      Hostfile hostfile,
      HeadDetector head,
      Function<String, SshTarget> targets,
      FanOut fanOut,
      Progress progress,
      Reach reach)
      throws InterruptedException {
    List<String> names = new ArrayList<>(new LinkedHashSet<>(hostfile.names()));
    String headName = null;
    for (String n : names) {
      if (head.isHead(n)) {
        headName = n;
        break; // one head: a second local name (e.g. localhost twice) still goes over SSH
      }
    }
    final String h = headName;
    List<NodeShell> opened = Collections.synchronizedList(new ArrayList<>());
    List<Object> outcomes;
    try {
      Map<String, NodeShell> reached = new LinkedHashMap<>();
      if (reach != null) {
        List<String> others = names.stream().filter(n -> !n.equals(h)).toList();
        progress.phase("connecting", others);
        reached.putAll(
            reach.reach(new LocalNodeShell(h != null ? h : localHostname()), others, fanOut));
      }
      outcomes =
          fanOut.map(
              "connecting",
              names,
              n -> {
                Object o =
                    reached.containsKey(n)
                        ? reached.get(n)
                        : openOne(n, n.equals(h), targets, fanOut);
                if (o instanceof NodeShell s) {
                  opened.add(s);
                }
                return o;
              },
              progress);
    } catch (InterruptedException | RuntimeException e) {
      // Nothing is handed back: close what was opened before the failure.
      synchronized (opened) {
        opened.forEach(NodeShell::close);
      }
      if (reach != null) {
        reach.close();
      }
      throw e;
    } finally {
      progress.done("connecting");
    }
    Map<String, NodeShell> shells = new LinkedHashMap<>();
    Map<String, String> down = new LinkedHashMap<>();
    LinkedHashSet<String> notes = new LinkedHashSet<>();
    for (Object o : outcomes) {
      if (o instanceof SshNodeShell s) {
        shells.put(s.node(), s);
        notes.addAll(s.target().notes());
      } else if (o instanceof NodeShell s) {
        shells.put(s.node(), s);
      } else {
        Unreachable u = (Unreachable) o;
        down.put(u.node(), u.problem());
      }
    }
    String headNode = h;
    if (headNode == null) {
      headNode = localHostname();
      Map<String, NodeShell> withHead = new LinkedHashMap<>(shells);
      withHead.put(headNode, new LocalNodeShell(headNode));
      shells = withHead;
    }
    for (String note : notes) {
      progress.note(note);
    }
    Session session = new Session(hostfile, headNode, shells, down, fanOut, progress);
    if (reach != null) {
      session.reach = reach;
      session.onClose(reach::close);
    }
    return session;
  }

  /**
   * {@code node} stopped answering: what reached it from the head lets go of it, beside the caller
   * (which must not wait).
   */
  public void nodeLost(String node) {
    Reach r = reach;
    if (r != null) {
      try {
        fanOut.beside(
            () -> {
              r.lost(node);
              return Boolean.TRUE;
            });
      } catch (RuntimeException e) {
        // the session is closing: its closers end every master
      }
    }
  }

  /** What reached nodes from the head when the session opened ({@link Reach#DIRECT}: nothing). */
  public Reach reach() {
    Reach r = reach;
    return r == null ? Reach.DIRECT : r;
  }

  private record Unreachable(String node, String problem) {}

  private static Object openOne(
      String name, boolean isHead, Function<String, SshTarget> targets, FanOut deadlines) {
    if (isHead) {
      return new LocalNodeShell(name);
    }
    SshTarget t;
    try {
      t = targets.apply(name);
    } catch (BadInputException e) {
      return new Unreachable(name, "ssh configuration: " + e.getMessage());
    }
    try {
      return SshNodeShell.connect(name, t, deadlines);
    } catch (NodeConnectException e) {
      return new Unreachable(name, e.problem());
    }
  }

  static String localHostname() {
    try {
      String h = InetAddress.getLocalHost().getHostName();
      int dot = h.indexOf('.');
      return dot > 0 ? h.substring(0, dot) : h;
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /** The nodes of the command, in hostfile order (the head only if listed). */
  public Hostfile hostfile() {
    return hostfile;
  }

  /** The node clusterrun (and so mpirun) runs on. */
  public String head() {
    return head;
  }

  /** The head's shell (always there: a local one). */
  public NodeShell headShell() {
    return shells.get(head);
  }

  /** Every reachable node's shell in hostfile order, the head's included. */
  public Map<String, NodeShell> shells() {
    return shells;
  }

  /** The nodes that could not be reached, and why, in hostfile order. */
  public Map<String, String> unreachable() {
    return unreachable;
  }

  public FanOut fanOut() {
    return fanOut;
  }

  public Progress progress() {
    return progress;
  }

  /**
   * {@code task} on the shell of every reachable node at once, keyed by node in order (failures are
   * part of each result: {@link NodeShell} answers them as data).
   */
  public <T> Map<String, T> onEveryShell(Function<NodeShell, T> task) throws InterruptedException {
    List<String> names = new ArrayList<>(shells.keySet());
    return fanOut.byNode(names, n -> task.apply(shells.get(n)));
  }

  /** {@link #onEveryShell} but on the nodes of {@code skip} (e.g. nodes lost during the run). */
  public <T> Map<String, T> onEveryShellExcept(Collection<String> skip, Function<NodeShell, T> task)
      throws InterruptedException {
    List<String> names = new ArrayList<>(shells.keySet());
    names.removeAll(skip);
    return fanOut.byNode(names, n -> task.apply(shells.get(n)));
  }

  /**
   * {@code closer} runs when the session closes, before its connections do (e.g. to end what a
   * round left running on the head); closers run last-registered first.
   */
  public void onClose(Runnable closer) {
    closers.add(closer);
  }

  /**
   * Begins letting go of the nodes beside the caller, once no command needs them any more: the
   * closers (e.g. the head's SSH masters) run on the session's pool while the caller goes on (e.g.
   * writes the run's summary); {@link #close} waits for them.
   */
  public void release() {
    synchronized (closers) {
      if (releasing == null) {
        releasing = fanOut.beside(this::runClosers);
      }
    }
  }

  /** Runs the closers (once each, last added first). */
  private Boolean runClosers() {
    List<Runnable> run;
    synchronized (closers) {
      run = new ArrayList<>(closers);
      closers.clear();
    }
    Collections.reverse(run);
    for (Runnable r : run) {
      try {
        r.run();
      } catch (RuntimeException e) {
        // A closer's failure must not keep the connections open.
      }
    }
    return Boolean.TRUE;
  }

  /** Runs the closers, then closes every connection (in parallel), then the fan-out. */
  @Override
  public void close() {
    // An interrupted command still ends what it left on the head: the closers run uninterrupted.
    boolean interrupted = Thread.interrupted();
    FanOut.Task<Boolean> r;
    synchronized (closers) {
      r = releasing;
    }
    if (r != null) {
      try {
        r.join();
      } catch (InterruptedException | RuntimeException e) {
        interrupted |= e instanceof InterruptedException;
      }
    }
    runClosers();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    try {
      onEveryShell(
          s -> {
            s.close();
            return Boolean.TRUE;
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      shells.values().forEach(NodeShell::close);
    } finally {
      fanOut.close();
    }
  }
}
