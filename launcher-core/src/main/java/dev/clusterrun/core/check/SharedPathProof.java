package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellQuote;
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

  private static Supplier<String> randomTokens() {
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

  /**
   * Proves several directories at once, in the rounds of one: the head writes every probe in one
   * command, each other node reads all of them in one, and the head reads back and removes them in
   * one.
   *
   * @return one verdict per subject, in order
   */
  public List<Verdict> prove(String head, Map<String, NodeShell> shells, List<Subject> subjects)
      throws InterruptedException {
    NodeShell headShell = shells.get(head);
    Verdict[] verdicts = new Verdict[subjects.size()];
    List<Probe> probes = new ArrayList<>();
    for (int i = 0; i < subjects.size(); i++) {
      Subject sub = subjects.get(i);
      String headDir = sub.paths().get(head);
      if (headDir == null || headDir.isEmpty() || headShell == null) {
        verdicts[i] = everyNode(head, null, sub.paths(), Status.ERROR, "the head has no data path");
      } else {
        probes.add(
            new Probe(
                i, sub, headDir, strip(headDir) + "/.clusterrun-probe-" + tokens.get(), tokens));
      }
    }
    if (probes.isEmpty()) {
      return List.of(verdicts);
    }
    // 1. The head writes every probe.
    ExecResult w = headShell.run(Scripts.wrap(Probe.all(probes, Probe::headWriteBody)), timeout);
    Map<String, String> wrote = Scripts.parse(w.stdout()).values();
    List<Probe> written = new ArrayList<>();
    StringBuilder removeFailed = new StringBuilder();
    for (Probe p : probes) {
      String problem = p.headWriteProblem(w, wrote);
      if (problem == null) {
        written.add(p);
        continue;
      }
      removeFailed.append("rm -rf -- ").append(ShellQuote.quote(p.dir)).append("; ");
      String mk = wrote.get(p.key("mkdir"));
      if (p.sub.create() && !"ok".equals(mk)) {
        mk = mk != null ? mk : problem;
      }
      verdicts[p.index] =
          mk != null && !"ok".equals(mk)
              ? new Verdict(head, null, Map.of(), mk, null)
              : everyNode(
                  head,
                  p.dir,
                  p.sub.paths(),
                  Status.ERROR,
                  "the head could not write " + p.dir + ": " + problem);
    }
    if (removeFailed.length() > 0) {
      headShell.run(removeFailed + "true", timeout);
    }
    // 2. Every other node reads every probe through its own path and answers with its own token.
    List<String> others = new ArrayList<>();
    for (Probe p : written) {
      for (String n : p.sub.paths().keySet()) {
        if (!n.equals(head) && !others.contains(n)) {
          others.add(n);
        }
      }
    }
    Map<String, Map<String, String>> reads =
        fanOut.byNode(others, n -> readAll(shells.get(n), n, written));
    // 3. The head reads back what the nodes wrote, then removes every probe directory.
    ExecResult v =
        headShell.run(
            Scripts.wrap(Probe.all(written, p -> p.verifyBody(head, reads::get))), timeout);
    Map<String, String> seenByHead = Scripts.parse(v.stdout()).values();
    Map<String, StringBuilder> leftOver = new LinkedHashMap<>();
    for (Probe p : written) {
      verdicts[p.index] = p.verdict(head, reads, seenByHead, v, leftOver);
    }
    fanOut.map(
        new ArrayList<>(leftOver.keySet()),
        n -> {
          try {
            return shells.get(n).run(leftOver.get(n) + "true", timeout).ok();
          } catch (RuntimeException e) {
            return false;
          }
        });
    return List.of(verdicts);
  }

  /** One node's reads of every probe, in one command: the raw answers, keyed. */
  private Map<String, String> readAll(NodeShell shell, String node, List<Probe> probes) {
    if (shell == null) {
      return Map.of("error", "no connection");
    }
    try {
      ExecResult r = shell.run(Scripts.wrap(Probe.all(probes, p -> p.readBody(node))), timeout);
      if (r.error() != null) {
        return Map.of("error", r.error());
      }
      Map<String, String> m = new LinkedHashMap<>(Scripts.parse(r.stdout()).values());
      m.put("exit", Integer.toString(r.exitCode()));
      return m;
    } catch (RuntimeException e) {
      return Map.of("error", e.toString());
    }
  }

  private static Verdict everyNode(
      String head, String probeDir, Map<String, String> paths, Status status, String detail) {
    Map<String, NodeProof> out = new LinkedHashMap<>();
    paths.forEach((n, p) -> out.put(n, new NodeProof(n, status, p, detail)));
    return new Verdict(head, probeDir, out, null, null);
  }

  /** What one node saw of the head's probe, and whether it could write its own. */
  private record Read(String seen, String write, String detail) {}

  /** One directory's probe: its directory, each node's index and token, its keys' prefix. */
  private static final class Probe {
    final int index;
    final Subject sub;
    final String headDir;
    final String dir;
    final String id;
    final String headToken;
    final Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    final Map<String, String> nodeTokens = new LinkedHashMap<>();

    Probe(int index, Subject sub, String headDir, String dir, Supplier<String> tokens) {
      this.index = index;
      this.sub = sub;
      this.headDir = headDir;
      this.dir = dir;
      this.id = dir.substring(dir.lastIndexOf('/') + 1);
      this.headToken = tokens.get();
      for (String n : sub.paths().keySet()) {
        nodeIndex.put(n, nodeIndex.size());
        nodeTokens.put(n, tokens.get());
      }
    }

    /** The key of this probe's answer {@code what}. */
    String key(String what) {
      return "p" + index + "." + what;
    }

    /** The bodies of {@code probes}, one after the other (each sets its own variables). */
    static String all(List<Probe> probes, java.util.function.Function<Probe, String> body) {
      StringBuilder b = new StringBuilder();
      for (Probe p : probes) {
        b.append(body.apply(p)).append('\n');
      }
      return b.toString();
    }

    String headWriteBody() {
      String mk =
          sub.create()
              ? "if e=$(mkdir -p -- "
                  + ShellQuote.quote(headDir)
                  + " 2>&1); then kv "
                  + key("mkdir")
                  + " ok; else kv "
                  + key("mkdir")
                  + " \"$e\"; fi\n"
              : "";
      return mk
          + "d="
          + ShellQuote.quote(dir)
          + "\nif e=$( { mkdir -p -- \"$d\" && printf '%s\\n' "
          + ShellQuote.quote(headToken)
          + " >\"$d/head\"; } 2>&1); then kv "
          + key("write")
          + " ok; else kv "
          + key("write")
          + " \"$e\"; fi";
    }

    /** Null when the head wrote its token, else why not. */
    String headWriteProblem(ExecResult w, Map<String, String> wrote) {
      String ok = wrote.get(key("write"));
      if (w.error() == null && "ok".equals(ok)) {
        return null;
      }
      return w.error() != null
          ? w.error()
          : ok != null ? ok : "no answer (exit " + w.exitCode() + ")";
    }

    String readBody(String node) {
      String data = sub.paths().get(node);
      if (data == null) {
        return "";
      }
      if (data.isEmpty()) {
        return "kv "
            + key("seen")
            + " error; kv "
            + key("detail")
            + " 'ENROOT_DATA_PATH is not set'";
      }
      String d = strip(data) + "/" + id;
      return "D="
          + ShellQuote.quote(data)
          + "\nd="
          + ShellQuote.quote(d)
          + "\nif [ ! -d \"$D\" ]; then kv "
          + key("seen")
          + " no-data-path\n"
          + "elif [ ! -e \"$d/head\" ]; then kv "
          + key("seen")
          + " missing\n"
          + "elif s=$(cat -- \"$d/head\" 2>&1); then\n"
          + "  if [ \"$s\" = "
          + ShellQuote.quote(headToken)
          + " ]; then\n"
          + "    kv "
          + key("seen")
          + " match\n"
          + "    if e=$( { printf '%s\\n' "
          + ShellQuote.quote(nodeTokens.get(node))
          + " >\"$d/node-"
          + nodeIndex.get(node)
          + "\"; } 2>&1); then kv "
          + key("write")
          + " ok; else kv "
          + key("write")
          + " \"$e\"; fi\n"
          + "  else kv "
          + key("seen")
          + " other; kv "
          + key("detail")
          + " \"$s\"; fi\n"
          + "else kv "
          + key("seen")
          + " error; kv "
          + key("detail")
          + " \"$s\"; fi";
    }

    /** What {@code node} answered for this probe. */
    Read read(Map<String, String> answers) {
      if (answers == null) {
        return new Read("error", null, "no answer");
      }
      String seen = answers.get(key("seen"));
      if (seen == null) {
        String error = answers.get("error");
        return new Read(
            "error", null, error != null ? error : "no answer (exit " + answers.get("exit") + ")");
      }
      return new Read(seen, answers.get(key("write")), answers.get(key("detail")));
    }

    /** The head reads back what the nodes wrote, then removes the probe directory. */
    String verifyBody(String head, java.util.function.Function<String, Map<String, String>> reads) {
      StringBuilder verify = new StringBuilder("d=" + ShellQuote.quote(dir) + "\n");
      for (String n : sub.paths().keySet()) {
        if (n.equals(head)) {
          continue;
        }
        Read r = read(reads.apply(n));
        if ("match".equals(r.seen()) && "ok".equals(r.write())) {
          int k = nodeIndex.get(n);
          verify
              .append("t=0; while [ ! -e \"$d/node-")
              .append(k)
              .append("\" ] && [ $t -lt 3 ]; do sleep 1; t=$((t + 1)); done\n")
              .append("kv ")
              .append(key("node." + k))
              .append(" \"$(cat -- \"$d/node-")
              .append(k)
              .append("\" 2>/dev/null)\"\n");
        }
      }
      verify
          .append("if e=$(rm -rf -- \"$d\" 2>&1); then kv ")
          .append(key("cleanup"))
          .append(" ok; else kv ")
          .append(key("cleanup"))
          .append(" \"$e\"; fi\n");
      return verify.toString();
    }

    /**
     * The verdict, from every node's answers and what the head read back; nodes whose own file the
     * head could not see get a command to remove it in {@code leftOver}.
     */
    Verdict verdict(
        String head,
        Map<String, Map<String, String>> reads,
        Map<String, String> seenByHead,
        ExecResult v,
        Map<String, StringBuilder> leftOver) {
      String cleanup = seenByHead.get(key("cleanup"));
      String cleanupProblem =
          "ok".equals(cleanup)
              ? null
              : "could not remove "
                  + dir
                  + ": "
                  + (cleanup != null ? cleanup : v.error() != null ? v.error() : "no answer");
      Map<String, NodeProof> out = new LinkedHashMap<>();
      out.put(head, new NodeProof(head, Status.SHARED, headDir, "the head wrote " + dir));
      for (String n : sub.paths().keySet()) {
        if (n.equals(head)) {
          continue;
        }
        Read r = read(reads.get(n));
        NodeProof p = judge(n, sub.paths().get(n), r, seenByHead);
        if (p.status() == Status.NOT_SHARED && "match".equals(r.seen())) {
          leftOver.computeIfAbsent(n, k -> new StringBuilder()).append(removeOwnScript(n));
        }
        out.put(n, p);
      }
      return new Verdict(head, dir, out, null, cleanupProblem);
    }

    NodeProof judge(String n, String p, Read r, Map<String, String> seenByHead) {
      String where = samePath(p, headDir) ? "" : " (its ENROOT_DATA_PATH is " + p + ")";
      return switch (r.seen()) {
        case "match" -> {
          if (!"ok".equals(r.write())) {
            yield new NodeProof(
                n, Status.ERROR, p, "read the head's probe but could not write: " + r.write());
          } else if (nodeTokens.get(n).equals(seenByHead.get(key("node." + nodeIndex.get(n))))) {
            yield new NodeProof(
                n, Status.SHARED, p, "read the head's probe and the head read its own");
          }
          yield new NodeProof(
              n,
              Status.NOT_SHARED,
              p,
              "read the head's probe, but the head does not see the file " + n + " wrote");
        }
        case "missing" ->
            new NodeProof(
                n,
                Status.NOT_SHARED,
                p,
                "does not see the head's probe " + dir + where + ": not the head's storage");
        case "no-data-path" ->
            new NodeProof(
                n, Status.NOT_SHARED, p, "has no directory " + p + ": not the head's storage");
        case "other" ->
            new NodeProof(
                n,
                Status.NOT_SHARED,
                p,
                "sees a different probe file there (\"" + r.detail() + "\")" + where);
        default -> new NodeProof(n, Status.ERROR, p, r.detail() != null ? r.detail() : "no answer");
      };
    }

    /** Removes what a node wrote where the head could not see it. */
    String removeOwnScript(String n) {
      String own = strip(sub.paths().get(n)) + "/" + id;
      return "rm -f -- "
          + ShellQuote.quote(own + "/node-" + nodeIndex.get(n))
          + "; rmdir -- "
          + ShellQuote.quote(own)
          + " 2>/dev/null; "
          + "";
    }
  }

  private static boolean samePath(String a, String b) {
    return a != null && b != null && strip(a).equals(strip(b));
  }

  private static String strip(String p) {
    String s = p;
    while (s.length() > 1 && s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}
