package dev.clusterrun.core.remote;

import dev.clusterrun.core.spec.SshSpec;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The head's own OpenSSH logins kept as master connections ({@code ControlMaster}, one socket per
 * node in a private directory under {@code /dev/shm}, which enroot binds into every container):
 * clusterrun reaches each node through its master ({@link MasterNodeShell}) for the facts, the
 * proofs and the search for leftovers, and mpirun's own {@code ssh} to start its daemons rides on
 * the same masters ({@link #mpirunSshArgs}) instead of logging in to every node a second time. One
 * login a node where there were three. A master left alone exits by itself after {@link
 * #PERSIST_SECONDS} idle seconds; {@link #close} ends them at once.
 *
 * <p>The logins carry the session's opening round ({@link #first}): each node runs its script as
 * the login's command, and the head runs its own at the same time ({@link #headFirst}).
 */
public final class SshMasters {
  /** Where the masters' directory is made (mktemp): head-local, in every enroot container. */
  public static final String TEMPLATE = "/dev/shm/clusterrun-ssh.XXXXXX";

  /** How long a master waits without a session before it exits on its own. */
  public static final int PERSIST_SECONDS = 120;

  /**
   * Longest node name that gets a master: a socket path must fit in 108 bytes, and OpenSSH binds a
   * temporary name 17 characters longer first.
   */
  public static final int MAX_NAME = 60;

  private static final Pattern MASTERS_DIR =
      Pattern.compile("/dev/shm/clusterrun-ssh\\.[A-Za-z0-9]{6,}");

  private final Duration timeout;
  private final String plannedMasters = newMastersDir();
  private volatile String nodeScript;
  private volatile String headScript;
  private volatile BiConsumer<String, ExecResult> onHeadAnswer;
  private volatile NodeShell head;
  private volatile SshLogins.Result logins;

  /**
   * @param timeout for each login's first command, and for ending the masters
   */
  public SshMasters(Duration timeout) {
    this.timeout = timeout;
  }

  /**
   * The head's logins for these SSH settings, or null when they ask for what the head's plain
   * {@code ssh NODE} would not do (another user, port or key, {@code --accept-new}): clusterrun's
   * own connections then.
   */
  public static SshMasters forSettings(SshSpec ssh, Duration timeout) {
    boolean plain =
        ssh.user() == null
            && ssh.port() == null
            && ssh.identity() == null
            && (ssh.knownHosts() == null || ssh.knownHosts() == SshSpec.KnownHostsPolicy.STRICT);
    return plain ? new SshMasters(timeout) : null;
  }

  /**
   * The session's opening round: each login runs {@code nodeScript} as its command, and the head
   * runs {@code headScript} at the same time. Set before the session opens.
   */
  public SshMasters first(String nodeScript, String headScript) {
    this.nodeScript = nodeScript;
    this.headScript = headScript;
    return this;
  }

  /**
   * Called with the head's name and what its own first script printed as soon as it has (on a
   * thread of the fan-out, while the logins to the other nodes may still be under way). Set before
   * the session opens; what it throws is ignored.
   */
  public SshMasters onHeadAnswer(BiConsumer<String, ExecResult> listener) {
    this.onHeadAnswer = listener;
    return this;
  }

  /**
   * The directory the masters will be kept in when it can be made: known before the logins, so that
   * mpirun's ssh settings are known while they are made ({@link #masters} says whether it was).
   */
  public String plannedMasters() {
    return plannedMasters;
  }

  /** Whether the head runs a script of its own beside the logins. */
  public boolean headRuns() {
    return headScript != null;
  }

  /** The head's own run of its opening script, told to the listener at once. */
  public ExecResult headFirst(NodeShell head) {
    ExecResult r = head.run(headScript, timeout);
    BiConsumer<String, ExecResult> l = onHeadAnswer;
    if (l != null) {
      try {
        l.accept(head.node(), r);
      } catch (RuntimeException e) {
        // the listener's own business: the checks go on
      }
    }
    return r;
  }

  /**
   * Logs in from {@code head} to {@code nodes}, keeping each login as a master and running the
   * nodes' opening script in it.
   *
   * @return each node's shell through its master, for the nodes a login got into and kept
   */
  public Map<String, NodeShell> login(NodeShell head, List<String> nodes) {
    this.head = head;
    SshLogins.Result r =
        SshLogins.run(head, nodes, timeout, SshLogins.Ask.kept(plannedMasters).running(nodeScript));
    logins = r;
    Map<String, NodeShell> out = new LinkedHashMap<>();
    for (String n : nodes) {
      SshLogins.Login a = r.logins().get(n);
      if (a != null && a.ok() && r.mastered().contains(n)) {
        out.put(n, new MasterNodeShell(n, r.masters()));
      }
    }
    return out;
  }

  /** The logins' outcomes, or null before {@link #login}. */
  public SshLogins.Result logins() {
    return logins;
  }

  /** The masters' directory, or null when none were kept. */
  public String masters() {
    SshLogins.Result r = logins;
    return r == null ? null : r.masters();
  }

  /** {@code node} stopped answering: its master is ended at once, the others kept. */
  public void lost(String node) {
    SshLogins.Result r = logins;
    if (r != null && r.mastered().contains(node)) {
      closeMaster(head, r.masters(), node, timeout);
    }
  }

  /** Ends every master and removes their directory. */
  public void close() {
    SshLogins.Result r = logins;
    if (r != null && r.masters() != null) {
      closeMasters(head, r.masters(), timeout);
    }
  }

  /**
   * A name for a masters' directory that does not exist yet (random, as mktemp's), known before the
   * logins: the head's {@code enroot start} can be given mpirun's ssh settings while the logins are
   * still being made.
   */
  public static String newMastersDir() {
    String abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    SecureRandom r = new SecureRandom();
    StringBuilder b = new StringBuilder(TEMPLATE.replace("XXXXXX", ""));
    for (int i = 0; i < 10; i++) {
      b.append(abc.charAt(r.nextInt(abc.length())));
    }
    return b.toString();
  }

  /** Whether {@code dir} is a masters' directory as clusterrun names them. */
  static boolean isMastersDir(String dir) {
    return dir != null && MASTERS_DIR.matcher(dir).matches();
  }

  /**
   * What mpirun's {@code ssh} gets ({@code plm_rsh_args}, PRRTE's {@code plm_ssh_args}) to use the
   * masters in {@code dir}: a node without one (a name mpirun spells differently, a master that
   * exited) is an ordinary login, as {@code ControlMaster=no} falls back when the socket is absent.
   */
  public static String mpirunSshArgs(String dir) {
    return "-o ControlMaster=no -o ControlPath=" + dir + "/%n";
  }

  /** Ends the master of {@code node} in {@code dir}, the others kept. */
  public static void closeMaster(NodeShell head, String dir, String node, Duration timeout) {
    if (!isMastersDir(dir) || node.contains("/")) {
      return;
    }
    head.exec(
        List.of(
            "ssh",
            "-F",
            "/dev/null",
            "-o",
            "ControlPath=" + dir + "/" + node,
            "-O",
            "exit",
            "clusterrun"),
        timeout);
  }

  private static final String CLOSE = ShellScript.text(SshMasters.class, "close-masters.sh");

  /** Ends the masters in {@code dir} and removes the directory ({@code close-masters.sh}). */
  public static void closeMasters(NodeShell head, String dir, Duration timeout) {
    if (!isMastersDir(dir)) {
      return;
    }
    head.run(ShellQuote.join(List.of("set", "--", dir)) + "\n" + CLOSE, timeout);
  }
}
