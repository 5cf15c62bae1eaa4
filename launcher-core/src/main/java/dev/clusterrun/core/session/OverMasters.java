package dev.clusterrun.core.session;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.SshLogins;
import dev.clusterrun.core.remote.SshMasters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The session's nodes reached over the head's OpenSSH logins ({@link SshMasters}): the logins run
 * first and carry the nodes' opening round, the head runs its own beside them, and every node a
 * login got into is then reached through its master.
 */
final class OverMasters implements Session.Reach {
  private final SshMasters masters;
  private final Map<String, ExecResult> firsts = new ConcurrentHashMap<>();
  private volatile Duration took = Duration.ZERO;

  OverMasters(SshMasters masters) {
    this.masters = masters;
  }

  @Override
  public Map<String, NodeShell> reach(NodeShell head, List<String> nodes, FanOut fanOut)
      throws InterruptedException {
    long t = System.nanoTime();
    // The head's own run of its opening script needs no login: beside the logins.
    FanOut.Task<ExecResult> own =
        masters.headRuns() ? fanOut.beside(() -> masters.headFirst(head)) : null;
    Map<String, NodeShell> shells = masters.login(head, nodes);
    took = Duration.ofNanos(System.nanoTime() - t);
    firsts.putAll(masters.logins().first());
    if (own != null) {
      try {
        firsts.put(head.node(), own.join());
      } catch (RuntimeException e) {
        // no answer kept: the round asks the head again
      }
    }
    return shells;
  }

  @Override
  public ExecResult firstAnswer(String node) {
    return firsts.remove(node);
  }

  @Override
  public ExecResult peekFirstAnswer(String node) {
    return firsts.get(node);
  }

  @Override
  public SshLogins.Result logins() {
    return masters.logins();
  }

  @Override
  public Duration took() {
    return took;
  }

  @Override
  public void close() {
    masters.close();
  }

  @Override
  public void lost(String node) {
    masters.lost(node);
  }
}
