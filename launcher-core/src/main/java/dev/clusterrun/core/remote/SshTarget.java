package dev.clusterrun.core.remote;

import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Everything needed to open one SSH connection to one node, resolved once: from explicit settings
 * (job spec, flags), then OpenSSH's own configuration ({@code ssh -G}), then defaults.
 *
 * @param alias the name as the hostfile gives it
 * @param hostname the address to connect to (after {@code HostName})
 * @param port TCP port
 * @param user remote user
 * @param identityFiles private key files that exist, in the order to try them
 * @param identitiesOnly only use {@code identityFiles}, also among the agent's keys
 * @param identityAgent agent socket: {@code null} means {@code $SSH_AUTH_SOCK}, {@code "none"}
 *     means no agent
 * @param jumps ProxyJump hops in connection order (the first one is reached directly); each hop has
 *     no jumps of its own
 * @param userKnownHostsFiles user known_hosts files; new keys are added to the first
 * @param globalKnownHostsFiles system known_hosts files (read only)
 * @param knownHostsPolicy what to do with an unknown host key; changed keys are always refused
 * @param hashKnownHosts whether keys added to known_hosts get a hashed host name
 * @param hostKeyAlias name to look up in known_hosts instead of {@code hostname}, or {@code null}
 * @param connectTimeout bound on the TCP connect and, separately, on the SSH handshake
 * @param serverAliveInterval keepalive interval; zero disables keepalives
 * @param serverAliveCountMax unanswered keepalives before the connection is declared dead
 * @param notes things a person may want to know about how this was resolved (e.g. "ssh not
 *     installed")
 */
public record SshTarget(
    String alias,
    String hostname,
    int port,
    String user,
    List<Path> identityFiles,
    boolean identitiesOnly,
    String identityAgent,
    List<SshTarget> jumps,
    List<Path> userKnownHostsFiles,
    List<Path> globalKnownHostsFiles,
    KnownHostsPolicy knownHostsPolicy,
    boolean hashKnownHosts,
    String hostKeyAlias,
    Duration connectTimeout,
    Duration serverAliveInterval,
    int serverAliveCountMax,
    List<String> notes) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_SERVER_ALIVE_INTERVAL = Duration.ofSeconds(30);

  public SshTarget {
    identityFiles = List.copyOf(identityFiles);
    jumps = List.copyOf(jumps);
    userKnownHostsFiles = List.copyOf(userKnownHostsFiles);
    globalKnownHostsFiles = List.copyOf(globalKnownHostsFiles);
    notes = List.copyOf(notes);
    if (knownHostsPolicy == null) {
      knownHostsPolicy = KnownHostsPolicy.STRICT;
    }
    if (connectTimeout == null || connectTimeout.isZero() || connectTimeout.isNegative()) {
      connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    }
    if (serverAliveInterval == null || serverAliveInterval.isNegative()) {
      serverAliveInterval = Duration.ZERO;
    }
  }

  /**
   * A target with clusterrun's defaults and no OpenSSH configuration: no identity files, {@code
   * ~/.ssh/known_hosts} of {@code home}, strict host keys. Mostly for tests and for building on
   * with the {@code with*} methods.
   */
  public static SshTarget of(String alias, String hostname, int port, String user) {
    return new SshTarget(
        alias,
        hostname,
        port,
        user,
        List.of(),
        false,
        null,
        List.of(),
        List.of(),
        List.of(),
        KnownHostsPolicy.STRICT,
        false,
        null,
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_SERVER_ALIVE_INTERVAL,
        3,
        List.of());
  }

  /** The name known_hosts is searched for: {@code host}, or {@code [host]:port} off port 22. */
  public String knownHostsName() {
    String name = (hostKeyAlias != null ? hostKeyAlias : hostname).toLowerCase(Locale.ROOT);
    return port == 22 ? name : "[" + name + "]:" + port;
  }

  public SshTarget withIdentityFiles(List<Path> files) {
    return with(c -> c.identityFiles = files);
  }

  public SshTarget withIdentityAgent(String agent) {
    return with(c -> c.identityAgent = agent);
  }

  public SshTarget withJumps(List<SshTarget> hops) {
    return with(c -> c.jumps = hops);
  }

  public SshTarget withKnownHosts(
      List<Path> userFiles, List<Path> globalFiles, KnownHostsPolicy policy, boolean hash) {
    return with(
        c -> {
          c.userKnownHostsFiles = userFiles;
          c.globalKnownHostsFiles = globalFiles;
          c.knownHostsPolicy = policy;
          c.hashKnownHosts = hash;
        });
  }

  public SshTarget withConnectTimeout(Duration timeout) {
    return with(c -> c.connectTimeout = timeout);
  }

  /** This target with some components changed: the one place the {@code with*} copies build. */
  private SshTarget with(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return new SshTarget(
        alias,
        hostname,
        port,
        user,
        c.identityFiles,
        identitiesOnly,
        c.identityAgent,
        c.jumps,
        c.userKnownHostsFiles,
        c.globalKnownHostsFiles,
        c.knownHostsPolicy,
        c.hashKnownHosts,
        hostKeyAlias,
        c.connectTimeout,
        serverAliveInterval,
        serverAliveCountMax,
        notes);
  }

  /** The components a {@code with*} method may change, starting as the target's own. */
  private static final class Copy {
    List<Path> identityFiles;
    String identityAgent;
    List<SshTarget> jumps;
    List<Path> userKnownHostsFiles;
    List<Path> globalKnownHostsFiles;
    KnownHostsPolicy knownHostsPolicy;
    boolean hashKnownHosts;
    Duration connectTimeout;

    Copy(SshTarget t) {
      identityFiles = t.identityFiles;
      identityAgent = t.identityAgent;
      jumps = t.jumps;
      userKnownHostsFiles = t.userKnownHostsFiles;
      globalKnownHostsFiles = t.globalKnownHostsFiles;
      knownHostsPolicy = t.knownHostsPolicy;
      hashKnownHosts = t.hashKnownHosts;
      connectTimeout = t.connectTimeout;
    }
  }
}
