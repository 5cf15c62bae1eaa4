package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.MasterNodeShell;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.SshSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The head's own OpenSSH logins as clusterrun's connections to the nodes: the head's SSH probe
 * ({@link NodeToNodeSsh}, what mpirun's {@code ssh} will meet) runs first and keeps each login as a
 * master connection; every node it got into is then reached through its master ({@link
 * MasterNodeShell}) for the facts, the proofs and the search for leftovers, and mpirun's {@code
 * ssh} starts the job's daemons over the same masters. One login a node where there were three. A
 * node the probe could not get into gets clusterrun's own SSH connection, which says why it fails.
 */
public final class HeadMasters implements Session.Reach {
  private final Duration timeout;
  private volatile NodeShell head;
  private volatile NodeToNodeSsh.Probe probe;
  private volatile Duration took = Duration.ZERO;
  private volatile String first;
  private volatile String firstHead;
  private final Map<String, ExecResult> firsts = new ConcurrentHashMap<>();
  private final String plannedMasters = NodeToNodeSsh.newMastersDir();
  private volatile java.util.function.BiConsumer<String, ExecResult> onHeadAnswer;

  /**
   * @param timeout for the probe, and for ending the masters
   */
  public HeadMasters(Duration timeout) {
    this.timeout = timeout;
  }

  /**
   * The head's logins for these SSH settings, or null when they ask for what the head's plain
   * {@code ssh NODE} would not do (another user, port or key, {@code --accept-new}): clusterrun's
   * own connections then, as before.
   */
  public static HeadMasters forSettings(SshSpec ssh, Duration timeout) {
    boolean plain =
        ssh.user() == null
            && ssh.port() == null
            && ssh.identity() == null
            && (ssh.knownHosts() == null || ssh.knownHosts() == SshSpec.KnownHostsPolicy.STRICT);
    return plain ? new HeadMasters(timeout) : null;
  }

  /**
   * Each login runs {@code script} as its command, and the head runs {@code headScript} at the same
   * time: the nodes' first round rides on the logins ({@link #takeFirst}). Set before the session
   * opens.
   */
  public HeadMasters first(String script, String headScript) {
    this.first = script;
    this.firstHead = headScript;
    return this;
  }

  /**
   * Called with the head's name and what its own first script printed as soon as it has (on a
   * thread of the fan-out, while the logins to the other nodes may still be under way). Set before
   * the session opens; what it throws is ignored.
   */
  public HeadMasters onHeadAnswer(java.util.function.BiConsumer<String, ExecResult> listener) {
    this.onHeadAnswer = listener;
    return this;
  }

  /**
   * The directory the masters will be kept in when it can be made: known before the probe, so that
   * mpirun's ssh settings are known while the logins are made ({@link #masters} says whether it
   * was).
   */
  public String plannedMasters() {
    return plannedMasters;
  }

  /**
   * What {@code script} printed on {@code node} (the head included) when the session opened, once:
   * null when it was another script, the node was not reached or it was taken already.
   */
  public ExecResult takeFirst(String node, String script) {
    NodeShell h = head;
    String ran = h != null && h.node().equals(node) ? firstHead : first;
    return script.equals(ran) ? firsts.remove(node) : null;
  }

  @Override
  public Map<String, NodeShell> reach(NodeShell head, List<String> nodes, FanOut fanOut)
      throws InterruptedException {
    this.head = head;
    long t = System.nanoTime();
    String script = first;
    String headScript = firstHead;
    // The head's own run of the first script needs no login: beside the probe.
    FanOut.Task<ExecResult> own =
        headScript == null ? null : fanOut.beside(() -> ownFirst(head, headScript));
    NodeToNodeSsh.Probe p = NodeToNodeSsh.run(head, nodes, timeout, true, script, plannedMasters);
    took = Duration.ofNanos(System.nanoTime() - t);
    probe = p;
    firsts.putAll(p.first());
    if (own != null) {
      try {
        firsts.put(head.node(), own.join());
      } catch (RuntimeException e) {
        // no answer kept: the round asks the head again
      }
    }
    Map<String, NodeShell> out = new LinkedHashMap<>();
    for (String n : nodes) {
      NodeToNodeSsh.Answer a = p.answers().get(n);
      if (a != null && a.ok() && p.mastered().contains(n)) {
        out.put(n, new MasterNodeShell(n, p.masters()));
      }
    }
    return out;
  }

  /** The head's own run of the first script, told to the listener at once. */
  private ExecResult ownFirst(NodeShell head, String script) {
    ExecResult r = head.run(script, timeout);
    java.util.function.BiConsumer<String, ExecResult> l = onHeadAnswer;
    if (l != null) {
      try {
        l.accept(head.node(), r);
      } catch (RuntimeException e) {
        // the listener's own business: the checks go on
      }
    }
    return r;
  }

  /** The probe's answers by node, or null before {@link #reach}. */
  public Map<String, NodeToNodeSsh.Answer> answers() {
    NodeToNodeSsh.Probe p = probe;
    return p == null ? null : p.answers();
  }

  /** How long the probe took. */
  public Duration took() {
    return took;
  }

  /** The masters' directory, or null when none were kept. */
  public String masters() {
    NodeToNodeSsh.Probe p = probe;
    return p == null ? null : p.masters();
  }

  @Override
  public void lost(String node) {
    NodeToNodeSsh.Probe p = probe;
    if (p != null && p.mastered().contains(node)) {
      NodeToNodeSsh.closeMaster(head, p.masters(), node, timeout);
    }
  }

  @Override
  public void close() {
    NodeToNodeSsh.Probe p = probe;
    if (p != null && p.masters() != null) {
      NodeToNodeSsh.closeMasters(head, p.masters(), timeout);
    }
  }
}
