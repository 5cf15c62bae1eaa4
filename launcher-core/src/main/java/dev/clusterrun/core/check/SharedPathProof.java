package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.PathTemplate;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Session;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one proof that a directory is the head's storage on every node, instead of a guess from the
 * filesystem type: the head writes a random token to {@code DIR/.clusterrun-probe-ID/head}; every
 * node reads it back through its own path and writes a token of its own beside it; the head then
 * reads all of them. The probe directory is removed afterwards (and a node's own file, where the
 * head could not see it). {@code check} proves each node's ENROOT_DATA_PATH, {@code setup} the data
 * path it is about to configure, {@code run} the workspace; each reads the same {@link Verdict}.
 */
public final class SharedPathProof {
  /** What was proven for one node. */
  public enum Status {
    SHARED,
    NOT_SHARED,
    ERROR
  }

  /**
   * @param path the node's directory used for the proof
   * @param detail what was seen, for a person
   */
  public record NodeProof(String node, Status status, String path, String detail) {}

  /**
   * The typed verdict of one proof.
   *
   * @param probeDir the head's probe directory (removed again), or null when none was made
   * @param nodes what was proven for each node, in order
   * @param headProblem why the head could not even create the directory, or null
   * @param cleanupProblem why the probe directory could not be removed, or null
   */
  public record Verdict(
      String head,
      String probeDir,
      Map<String, NodeProof> nodes,
      String headProblem,
      String cleanupProblem) {
    public Verdict {
      nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    }

    /** Nothing to prove: the caller takes the directory as shared (one node, or on purpose). */
    public static Verdict assumed() {
      return new Verdict(null, null, Map.of(), null, null);
    }

    /** A verdict where the nodes named are not proven shared, for the reason given. */
    public static Verdict notProven(Map<String, String> problems) {
      Map<String, NodeProof> m = new LinkedHashMap<>();
      problems.forEach((n, why) -> m.put(n, new NodeProof(n, Status.NOT_SHARED, null, why)));
      return new Verdict(null, null, m, null, null);
    }

    public Optional<NodeProof> node(String node) {
      return Optional.ofNullable(nodes.get(node));
    }

    /** Every node that is not proven shared, with what was seen there. */
    public Map<String, String> notShared() {
      Map<String, String> out = new LinkedHashMap<>();
      nodes.forEach(
          (n, p) -> {
            if (p.status() != Status.SHARED) {
              out.put(n, p.detail());
            }
          });
      return out;
    }

    /**
     * Why the directory is not proven shared for {@code node}; empty when it is (or the node was
     * not part of the proof).
     */
    public Optional<String> problem(String node) {
      if (headProblem != null) {
        return Optional.of("the head could not create it: " + headProblem);
      }
      return node(node).filter(p -> p.status() != Status.SHARED).map(NodeProof::detail);
    }
  }

  private final FanOut fanOut;
  private final Duration timeout;
  private final Supplier<String> tokens;

  public SharedPathProof(FanOut fanOut, Duration timeout) {
    this(fanOut, timeout, randomTokens());
  }

  SharedPathProof(FanOut fanOut, Duration timeout, Supplier<String> tokens) {
    this.fanOut = fanOut;
    this.timeout = timeout;
    this.tokens = tokens;
  }

  static Supplier<String> randomTokens() {
    SecureRandom r = new SecureRandom();
    return () -> {
      byte[] b = new byte[12];
      r.nextBytes(b);
      return HexFormat.of().formatHex(b);
    };
  }

  /**
   * One directory to prove.
   *
   * @param paths each node's path to it (from its facts); the head's included
   * @param create whether the head creates it first ({@code mkdir -p}, as the job user: on a shared
   *     filesystem that makes it appear everywhere); a failure is the verdict's head problem
   */
  public record Subject(Map<String, String> paths, boolean create) {
    public Subject {
      paths = Collections.unmodifiableMap(new LinkedHashMap<>(paths));
    }

    /** The same path on every node of {@code nodes}, created by the head first. */
    public static Subject created(String path, Iterable<String> nodes) {
      Map<String, String> m = new LinkedHashMap<>();
      nodes.forEach(n -> m.put(n, path));
      return new Subject(m, true);
    }
  }

  /**
   * The head creates {@code path} (as the job user; on a shared filesystem that makes it appear
   * everywhere), then the proof runs on exactly that path on every node of the session.
   */
  public static Verdict ofDirectory(Session session, String path, Duration timeout)
      throws InterruptedException {
    return new SharedPathProof(session.fanOut(), timeout)
        .prove(
            session.head(),
            session.shells(),
            List.of(Subject.created(path, session.shells().keySet())))
        .get(0);
  }

  /** Prints the session user's identity as bash expands it for enroot ({@code proof.sh}). */
  private static final String IDENTITY = ProofProbe.script(ProofProbe.call("cr_proof_identity"));

  /**
   * {@link #ofDirectory} for a data path that may be a per-user template: each node's path is the
   * template expanded for the session's user there (uid, gid, USER and HOME, read in one round trip
   * on every node), as enroot computes it for that user. The template itself never reaches a shell:
   * only its expansion, quoted. A node whose identity cannot be read, or where the template uses a
   * variable that is empty, is not proven.
   */
  public static Verdict ofPath(Session session, PathTemplate path, Duration timeout)
      throws InterruptedException {
    if (!path.isTemplate()) {
      return ofDirectory(session, path.text(), timeout);
    }
    Map<String, NodeShell> shells = session.shells();
    Map<String, ExecResult> ids =
        session
            .fanOut()
            .byNode(new ArrayList<>(shells.keySet()), n -> shells.get(n).run(IDENTITY, timeout));
    Map<String, String> paths = new LinkedHashMap<>();
    Map<String, String> problems = new LinkedHashMap<>();
    ids.forEach(
        (n, r) -> {
          Map<String, String> v = r.ok() ? Scripts.parse(r.stdout()).values() : Map.of();
          String uid = v.get("uid");
          if (uid == null || uid.isEmpty()) {
            problems.put(
                n,
                "cannot read the user's uid to expand "
                    + path.text()
                    + ": "
                    + (r.error() != null ? r.error() : "exit " + r.exitCode() + " " + r.stderr())
                        .strip());
            return;
          }
          PathTemplate.Identity who =
              new PathTemplate.Identity(uid, v.get("gid"), v.get("user"), v.get("home"));
          String unset = path.unsetIn(who);
          if (unset != null) {
            problems.put(
                n, unset + " is empty for the user here, so " + path.text() + " is not per user");
          } else {
            paths.put(n, path.expand(who));
          }
        });
    String head = session.head();
    if (!paths.containsKey(head)) {
      return new Verdict(head, null, Map.of(), problems.get(head), null);
    }
    Map<String, NodeShell> provable = new LinkedHashMap<>();
    paths.keySet().forEach(n -> provable.put(n, shells.get(n)));
    Verdict v =
        new SharedPathProof(session.fanOut(), timeout)
            .prove(head, provable, List.of(new Subject(paths, true)))
            .get(0);
    Map<String, NodeProof> nodes = new LinkedHashMap<>(v.nodes());
    problems.forEach((n, why) -> nodes.put(n, new NodeProof(n, Status.ERROR, null, why)));
    return new Verdict(v.head(), v.probeDir(), nodes, v.headProblem(), v.cleanupProblem());
  }

  /**
   * Proves several directories at once, in the rounds of one: the head writes every probe in one
   * command, each other node reads all of them in one, and the head reads back and removes them in
   * one ({@link ProofRounds}).
   *
   * @return one verdict per subject, in order
   */
  public List<Verdict> prove(String head, Map<String, NodeShell> shells, List<Subject> subjects)
      throws InterruptedException {
    NodeShell headShell = shells.get(head);
    Verdict[] verdicts = new Verdict[subjects.size()];
    List<ProofProbe> probes = new ArrayList<>();
    for (int i = 0; i < subjects.size(); i++) {
      Subject sub = subjects.get(i);
      String headDir = sub.paths().get(head);
      if (headDir == null || headDir.isEmpty() || headShell == null) {
        verdicts[i] = everyNode(head, null, sub.paths(), Status.ERROR, "the head has no data path");
      } else {
        probes.add(ProofProbe.own(i, sub, headDir, tokens));
      }
    }
    if (probes.isEmpty()) {
      return List.of(verdicts);
    }
    // 1. The head writes every probe.
    ExecResult w =
        headShell.run(ProofProbe.script(ProofProbe.all(probes, ProofProbe::writeCall)), timeout);
    return rounds().run(head, shells, probes, verdicts, w, Map.of());
  }

  /** The rounds after the head's write, with this proof's fan-out, timeout and tokens. */
  ProofRounds rounds() {
    return new ProofRounds(fanOut, timeout, tokens);
  }

  /** A verdict with the same outcome for every node of {@code paths}. */
  static Verdict everyNode(
      String head, String probeDir, Map<String, String> paths, Status status, String detail) {
    Map<String, NodeProof> out = new LinkedHashMap<>();
    paths.forEach((n, p) -> out.put(n, new NodeProof(n, status, p, detail)));
    return new Verdict(head, probeDir, out, null, null);
  }
}
