package dev.clusterrun.core.check;

import dev.clusterrun.core.enroot.PathTemplate;
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

  /** Prints the session user's identity as bash expands it for enroot; fixed text, no input. */
  private static final String IDENTITY =
      "kv uid \"$(id -u)\"; kv gid \"$(id -g)\"; kv user \"${USER-}\"; kv home \"${HOME-}\"";

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
            .byNode(
                new ArrayList<>(shells.keySet()),
                n -> shells.get(n).run(Scripts.wrap(IDENTITY), timeout));
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
        probes.add(Probe.own(i, sub, headDir, tokens));
      }
    }
    if (probes.isEmpty()) {
      return List.of(verdicts);
    }
    // 1. The head writes every probe.
    ExecResult w = headShell.run(Scripts.wrap(Probe.all(probes, Probe::headWriteBody)), timeout);
    return rounds(head, shells, probes, verdicts, w, Map.of());
  }

  /**
   * Rounds 2 and 3 after the head wrote the probes ({@code w}, its answers): every other node reads
   * every probe through its own path (those of {@code early} that saw the head's probe answered in
   * an earlier command already) and writes its own answer, then the head reads those back and
   * removes the probe directories.
   */
  private List<Verdict> rounds(
      String head,
      Map<String, NodeShell> shells,
      List<Probe> probes,
      Verdict[] verdicts,
      ExecResult w,
      Map<String, Map<String, String>> early)
      throws InterruptedException {
    NodeShell headShell = shells.get(head);
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
    // 2. Every other node reads every probe through its own path and answers with its own token;
    // a node that answered every probe earlier, having seen the head's, is not asked again.
    List<String> others = new ArrayList<>();
    for (Probe p : written) {
      for (String n : p.sub.paths().keySet()) {
        if (!n.equals(head) && !others.contains(n)) {
          others.add(n);
        }
      }
    }
    List<String> ask = new ArrayList<>();
    for (String n : others) {
      Map<String, String> e = early.get(n);
      if (e == null || !written.stream().allMatch(p -> "match".equals(e.get(p.key("seen"))))) {
        ask.add(n);
      }
    }
    if (ask.stream().anyMatch(early::containsKey)) {
      written = renamed(headShell, written);
    }
    List<Probe> toRead = written;
    Map<String, Map<String, String>> reads = new LinkedHashMap<>();
    Map<String, Map<String, String>> asked =
        fanOut.byNode(ask, n -> readAll(shells.get(n), n, toRead));
    for (String n : others) {
      reads.put(n, asked.containsKey(n) ? asked.get(n) : early.get(n));
    }
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
    // a carried proof without a workspace leaves that verdict null
    return java.util.Collections.unmodifiableList(java.util.Arrays.asList(verdicts));
  }

  /**
   * The data path's proof and a workspace's, their first two rounds carried by the commands that
   * gather each node's facts when the session opens ({@link HeadMasters#first}): the head writes
   * its probes at the end of its own fact script, and every other node, at the end of its, reads
   * them through its ENROOT_DATA_PATH as the facts just read it (and the workspace's path) and
   * writes its answer, named after its hostname. The head's probe may not be written yet when a
   * node looks (the head gathers its facts beside the logins): such a node is asked again in a
   * round of its own, under a name it never looked up ({@link SharedPathProof#renamed}), as is
   * every node without those answers. Then the head reads back and removes the probes, as {@link
   * #prove} does.
   */
  public static final class Carried {
    private static final int DATA = 0;
    private static final int WORKSPACE = 1;

    private final boolean dataPath;
    private final String workspace;
    private final String[] ids = new String[2];
    private final String[] headTokens = new String[2];
    private final String[] nodeTokens = new String[2];

    /**
     * @param dataPath prove each node's ENROOT_DATA_PATH
     * @param workspace the workspace to create and prove (null for none)
     */
    public Carried(boolean dataPath, String workspace) {
      this(dataPath, workspace, randomTokens());
    }

    Carried(boolean dataPath, String workspace, Supplier<String> tokens) {
      this.dataPath = dataPath;
      this.workspace = workspace;
      for (int i = 0; i < 2; i++) {
        ids[i] = ".clusterrun-probe-" + tokens.get();
        headTokens[i] = tokens.get();
        nodeTokens[i] = tokens.get();
      }
    }

    /** Whether there is anything to prove. */
    public boolean any() {
      return dataPath || workspace != null;
    }

    /** Whether each node's ENROOT_DATA_PATH is proven. */
    public boolean dataPath() {
      return dataPath;
    }

    /** The workspace proven, or null. */
    public String workspace() {
      return workspace;
    }

    /** What the head runs after its facts: it writes every probe. */
    public String headTail() {
      StringBuilder b = new StringBuilder();
      if (dataPath) {
        b.append(
                Probe.headWriteBody(
                    DATA, "${ENROOT_DATA_PATH-}", false, ids[DATA], headTokens[DATA]))
            .append('\n');
      }
      if (workspace != null) {
        b.append(
                Probe.headWriteBody(
                    WORKSPACE,
                    ShellQuote.quote(workspace),
                    true,
                    ids[WORKSPACE],
                    headTokens[WORKSPACE]))
            .append('\n');
      }
      return Scripts.wrap(b.toString());
    }

    /** What every other node runs after its facts: it reads every probe and answers. */
    public String nodeTail() {
      return Scripts.wrap(reads("${ENROOT_DATA_PATH-}", "$cr_h"));
    }

    private String reads(String dataExpr, String hostExpr) {
      StringBuilder b = new StringBuilder();
      if (dataPath) {
        b.append(
                Probe.readBody(
                    DATA,
                    dataExpr,
                    ids[DATA],
                    headTokens[DATA],
                    "node-" + hostExpr,
                    hostExpr,
                    nodeTokens[DATA]))
            .append('\n');
      }
      if (workspace != null) {
        b.append(
                Probe.readBody(
                    WORKSPACE,
                    ShellQuote.quote(workspace),
                    ids[WORKSPACE],
                    headTokens[WORKSPACE],
                    "node-" + hostExpr,
                    hostExpr,
                    nodeTokens[WORKSPACE]))
            .append('\n');
      }
      return b.toString();
    }

    /**
     * The rest of the proof, once the facts are in.
     *
     * @param dataPaths each answering node's ENROOT_DATA_PATH (the head's included)
     * @param hostnames each answering node's hostname, as its facts read it
     * @param headOut what the head printed (its facts and its writes), or null when it gave no
     *     answer
     * @param nodeOuts what each other node printed (its facts and its reads), where there is one
     * @return the data path's verdict (null when not asked) and the workspace's (null when none)
     */
    public List<Verdict> finish(
        SharedPathProof proof,
        String head,
        Map<String, NodeShell> shells,
        Map<String, String> dataPaths,
        Map<String, String> hostnames,
        ExecResult headOut,
        Map<String, String> nodeOuts)
        throws InterruptedException {
      Verdict[] verdicts = new Verdict[2];
      List<Probe> probes = new ArrayList<>();
      String headData = dataPaths.get(head);
      if (dataPath) {
        Subject sub = new Subject(dataPaths, false);
        if (headData == null || headData.isEmpty() || headOut == null) {
          verdicts[DATA] =
              everyNode(head, null, sub.paths(), Status.ERROR, "the head has no data path");
        } else {
          probes.add(carriedProbe(DATA, sub, headData, hostnames));
        }
      }
      if (workspace != null) {
        Subject sub = Subject.created(workspace, shells.keySet());
        if (headOut == null) {
          verdicts[WORKSPACE] =
              everyNode(head, null, sub.paths(), Status.ERROR, "the head gave no answer");
        } else {
          probes.add(carriedProbe(WORKSPACE, sub, workspace, hostnames));
        }
      }
      if (!probes.isEmpty()) {
        Map<String, Map<String, String>> early = new LinkedHashMap<>();
        nodeOuts.forEach(
            (n, out) -> {
              Map<String, String> m = new LinkedHashMap<>(Scripts.parse(out).values());
              m.put("exit", "0");
              early.put(n, m);
            });
        List<Verdict> done = proof.rounds(head, shells, probes, verdicts, headOut, early);
        verdicts = done.toArray(new Verdict[0]);
      }
      return java.util.Arrays.asList(verdicts);
    }

    private Probe carriedProbe(
        int index, Subject sub, String headDir, Map<String, String> hostnames) {
      return new Probe(
          index,
          sub,
          headDir,
          ids[index],
          headTokens[index],
          n -> nodeTokens[index],
          (n, k) -> "node-" + hostnames.getOrDefault(n, "unknown-" + k),
          n -> ShellQuote.quote(hostnames.getOrDefault(n, "")));
    }
  }

  /**
   * The probes under new names, for the nodes asked again after they looked in their first command:
   * a node that looked the probe's name up before the head had made it may go on seeing it missing
   * (an NFS client keeps a failed lookup while it holds the directory's attributes as fresh:
   * nfs(5), {@code lookupcache}), while a name it never looked up it asks the server for. The head
   * renames each probe directory (the answers already in it move along); a probe it could not
   * rename keeps its name.
   */
  private List<Probe> renamed(NodeShell headShell, List<Probe> probes) {
    StringBuilder b = new StringBuilder();
    List<Probe> next = new ArrayList<>();
    for (Probe p : probes) {
      Probe r = p.renamed(".clusterrun-probe-" + tokens.get());
      next.add(r);
      b.append("if mv -- ")
          .append(ShellQuote.quote(p.dir))
          .append(' ')
          .append(ShellQuote.quote(r.dir))
          .append(" 2>/dev/null; then kv ")
          .append(p.key("renamed"))
          .append(" ok; fi\n");
    }
    Map<String, String> done;
    try {
      done = Scripts.parse(headShell.run(Scripts.wrap(b.toString()), timeout).stdout()).values();
    } catch (RuntimeException e) {
      done = Map.of();
    }
    List<Probe> out = new ArrayList<>();
    for (int i = 0; i < probes.size(); i++) {
      out.add("ok".equals(done.get(probes.get(i).key("renamed"))) ? next.get(i) : probes.get(i));
    }
    return out;
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

  /**
   * One directory's probe: its directory, each node's index (its answers' keys), token and file,
   * its keys' prefix.
   */
  private static final class Probe {
    final int index;
    final Subject sub;
    final String headDir;
    final String dir;
    final String id;
    final String headToken;
    final Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    final Map<String, String> nodeTokens = new LinkedHashMap<>();
    final Map<String, String> nodeFiles = new LinkedHashMap<>();

    /** A node's hostname as a shell word (its file is named after it), or null: by index. */
    final java.util.function.Function<String, String> hostOf;

    Probe(
        int index,
        Subject sub,
        String headDir,
        String id,
        String headToken,
        java.util.function.Function<String, String> tokenOf,
        java.util.function.BiFunction<String, Integer, String> fileOf,
        java.util.function.Function<String, String> hostOf) {
      this.index = index;
      this.sub = sub;
      this.headDir = headDir;
      this.dir = strip(headDir) + "/" + id;
      this.id = id;
      this.headToken = headToken;
      this.hostOf = hostOf;
      for (String n : sub.paths().keySet()) {
        int k = nodeIndex.size();
        nodeIndex.put(n, k);
        nodeTokens.put(n, tokenOf.apply(n));
        nodeFiles.put(n, fileOf.apply(n, k));
      }
    }

    /** This probe under the name {@code newId} (its directory renamed), answers and all. */
    Probe renamed(String newId) {
      return new Probe(this, newId);
    }

    private Probe(Probe p, String newId) {
      this.index = p.index;
      this.sub = p.sub;
      this.headDir = p.headDir;
      this.dir = strip(headDir) + "/" + newId;
      this.id = newId;
      this.headToken = p.headToken;
      this.hostOf = p.hostOf;
      nodeIndex.putAll(p.nodeIndex);
      nodeTokens.putAll(p.nodeTokens);
      nodeFiles.putAll(p.nodeFiles);
    }

    /** A probe of its own rounds: fresh tokens, each node's file named by its index. */
    static Probe own(int index, Subject sub, String headDir, Supplier<String> tokens) {
      return new Probe(
          index,
          sub,
          headDir,
          ".clusterrun-probe-" + tokens.get(),
          tokens.get(),
          n -> tokens.get(),
          (n, k) -> "node-" + k,
          null);
    }

    /** The key of this probe's answer {@code what}. */
    String key(String what) {
      return key(index, what);
    }

    static String key(int index, String what) {
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
      return headWriteBody(index, ShellQuote.quote(headDir), sub.create(), id, headToken);
    }

    /**
     * The head's write: {@code dirExpr} (a shell word: a quoted path, or a variable) is the
     * directory, made first when {@code create}; the probe is {@code DIR/ID/head}.
     */
    static String headWriteBody(
        int index, String dirExpr, boolean create, String id, String token) {
      String write = key(index, "write");
      String mk = key(index, "mkdir");
      return "D="
          + dirExpr
          + "\n"
          + "while [ ${#D} -gt 1 ] && [ \"${D%/}\" != \"$D\" ]; do D=${D%/}; done\n"
          + (create
              ? "if e=$(mkdir -p -- \"$D\" 2>&1); then kv "
                  + mk
                  + " ok; else kv "
                  + mk
                  + " \"$e\"; fi\n"
              : "")
          + "d=\"$D\"/"
          + ShellQuote.quote(id)
          + "\nif [ -z \"$D\" ]; then kv "
          + write
          + " 'not set'\n"
          + "elif e=$( { mkdir -p -- \"$d\" && printf '%s\\n' "
          + ShellQuote.quote(token)
          + " >\"$d/head\"; } 2>&1); then kv "
          + write
          + " ok; else kv "
          + write
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
      return readBody(
          index,
          ShellQuote.quote(data),
          id,
          headToken,
          hostOf == null ? ShellQuote.quote(nodeFiles.get(node)) : null,
          hostOf == null ? null : hostOf.apply(node),
          nodeTokens.get(node));
    }

    /**
     * A node's read of the head's probe under {@code dirExpr} (a shell word; empty:
     * ENROOT_DATA_PATH is not set) and, when it matches, its own answer: the file {@code file} (a
     * shell word), or, with {@code hostExpr} (a shell word) instead, {@code node-HOSTNAME}.
     */
    static String readBody(
        int index,
        String dirExpr,
        String id,
        String headToken,
        String file,
        String hostExpr,
        String nodeToken) {
      String seen = key(index, "seen");
      String detail = key(index, "detail");
      String write = key(index, "write");
      String writeOwn =
          "if e=$( { printf '%s\\n' "
              + ShellQuote.quote(nodeToken)
              + " >\"$d\"/"
              + (hostExpr == null ? file : "\"node-$h\"")
              + "; } 2>&1); then kv "
              + write
              + " ok; else kv "
              + write
              + " \"$e\"; fi\n";
      if (hostExpr != null) {
        writeOwn =
            "h="
                + hostExpr
                + "\ncase $h in\n"
                + "  '' | *[!A-Za-z0-9._-]*) kv "
                + write
                + " \"no hostname to name its answer after: '$h'\" ;;\n"
                + "  *) "
                + writeOwn
                + "  ;;\nesac\n";
      }
      return "D="
          + dirExpr
          + "\n"
          + "while [ ${#D} -gt 1 ] && [ \"${D%/}\" != \"$D\" ]; do D=${D%/}; done\n"
          + "d=\"$D\"/"
          + ShellQuote.quote(id)
          + "\ns=\n"
          + "if [ -z \"$D\" ]; then kv "
          + seen
          + " error; kv "
          + detail
          + " 'ENROOT_DATA_PATH is not set'\n"
          + "elif [ ! -d \"$D\" ]; then kv "
          + seen
          + " no-data-path\n"
          + "elif [ ! -e \"$d/head\" ]; then kv "
          + seen
          + " missing\n"
          + "elif { IFS= read -r s <\"$d/head\"; } 2>/dev/null || [ -n \"$s\" ]; then\n"
          + "  if [ \"$s\" = "
          + ShellQuote.quote(headToken)
          + " ]; then\n"
          + "    kv "
          + seen
          + " match\n"
          + writeOwn
          + "  else kv "
          + seen
          + " other; kv "
          + detail
          + " \"$s\"; fi\n"
          + "else kv "
          + seen
          + " error; kv "
          + detail
          + " \"cannot read $d/head\"; fi";
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
          String f = "\"$d\"/" + ShellQuote.quote(nodeFiles.get(n));
          verify
              .append("t=0; while [ ! -e ")
              .append(f)
              .append(" ] && [ $t -lt 3 ]; do sleep 1; t=$((t + 1)); done\n")
              .append("s=; { IFS= read -r s <")
              .append(f)
              .append("; } 2>/dev/null\n")
              .append("kv ")
              .append(key("node." + k))
              .append(" \"$s\"\n");
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
          + ShellQuote.quote(own + "/" + nodeFiles.get(n))
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
