package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.remote.ShellQuote;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Proves over the wire that every node's ENROOT_DATA_PATH is the head's storage, instead of
 * guessing it from the filesystem type: the head writes a random token to {@code
 * DATA/.clusterrun-probe-ID/head}; every node reads it back through its own data path and writes a
 * token of its own beside it; the head then reads all of them. The probe directory is removed
 * afterwards (and a node's own file, where the head could not see it).
 */
public final class SharedPathProof {
  /** What was proven for one node. */
  public enum Status {
    SHARED,
    NOT_SHARED,
    ERROR
  }

  /**
   * @param dataPath the node's effective ENROOT_DATA_PATH used for the proof
   * @param detail what was seen, for a person
   */
  public record NodeOutcome(String node, Status status, String dataPath, String detail) {}

  /**
   * @param probeDir the head's probe directory (removed again)
   * @param cleanupProblem why the probe directory could not be removed, or {@code null}
   */
  public record Result(
      String head, String probeDir, Map<String, NodeOutcome> nodes, String cleanupProblem) {
    public Result {
      nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
    }

    public Optional<NodeOutcome> outcome(String node) {
      return Optional.ofNullable(nodes.get(node));
    }
  }

  private final ParallelRunner parallel;
  private final Duration timeout;
  private final Supplier<String> tokens;

  public SharedPathProof(ParallelRunner parallel, Duration timeout) {
    this(parallel, timeout, randomTokens());
  }

  SharedPathProof(ParallelRunner parallel, Duration timeout, Supplier<String> tokens) {
    this.parallel = parallel;
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
   * Runs the proof.
   *
   * @param head the node clusterrun runs on (writes first, reads last)
   * @param shells open shells, at least for the head and every node in {@code dataPaths}
   * @param dataPaths each node's effective ENROOT_DATA_PATH (from its facts); the head's included
   */
  public Result prove(String head, Map<String, NodeShell> shells, Map<String, String> dataPaths) {
    String headData = dataPaths.get(head);
    String id = tokens.get();
    Map<String, NodeOutcome> out = new LinkedHashMap<>();
    if (headData == null || headData.isEmpty() || shells.get(head) == null) {
      for (String n : dataPaths.keySet()) {
        out.put(n, new NodeOutcome(n, Status.ERROR, dataPaths.get(n), "the head has no data path"));
      }
      return new Result(head, null, out, null);
    }
    String probeDir = strip(headData) + "/.clusterrun-probe-" + id;
    String headToken = tokens.get();

    NodeShell headShell = shells.get(head);
    ExecResult w =
        headShell.run(
            Scripts.wrap(
                "d="
                    + ShellQuote.quote(probeDir)
                    + "\nif e=$( { mkdir -p -- \"$d\" && printf '%s\\n' "
                    + ShellQuote.quote(headToken)
                    + " >\"$d/head\"; } 2>&1); then kv write ok; else kv write \"$e\"; fi"),
            timeout);
    KeyValues.Parsed wp = Scripts.parse(w.stdout());
    String wrote = wp.values().get("write");
    if (w.error() != null || !"ok".equals(wrote)) {
      String why =
          w.error() != null
              ? w.error()
              : wrote != null ? wrote : "no answer (exit " + w.exitCode() + ")";
      for (String n : dataPaths.keySet()) {
        out.put(
            n,
            new NodeOutcome(
                n,
                Status.ERROR,
                dataPaths.get(n),
                "the head could not write " + probeDir + ": " + why));
      }
      cleanup(headShell, probeDir);
      return new Result(head, probeDir, out, null);
    }

    // Every other node reads the head's token through its own data path and answers with its own.
    List<String> others = new ArrayList<>();
    Map<String, Integer> index = new LinkedHashMap<>();
    Map<String, String> nodeTokens = new LinkedHashMap<>();
    int i = 0;
    for (String n : dataPaths.keySet()) {
      if (n.equals(head)) {
        continue;
      }
      others.add(n);
      index.put(n, i++);
      nodeTokens.put(n, tokens.get());
    }
    Map<String, Read> reads =
        parallel.map(
            others,
            n ->
                read(
                    shells.get(n),
                    dataPaths.get(n),
                    id,
                    headToken,
                    index.get(n),
                    nodeTokens.get(n)),
            (n, e) -> new Read("error", null, e.toString()));

    // The head reads back what the nodes wrote.
    StringBuilder verify = new StringBuilder("d=" + ShellQuote.quote(probeDir) + "\n");
    for (String n : others) {
      if ("match".equals(reads.get(n).seen()) && "ok".equals(reads.get(n).write())) {
        int k = index.get(n);
        verify
            .append("t=0; while [ ! -e \"$d/node-")
            .append(k)
            .append("\" ] && [ $t -lt 3 ]; do sleep 1; t=$((t + 1)); done\n")
            .append("kv node.")
            .append(k)
            .append(" \"$(cat -- \"$d/node-")
            .append(k)
            .append("\" 2>/dev/null)\"\n");
      }
    }
    verify.append(
        "if e=$(rm -rf -- \"$d\" 2>&1); then kv cleanup ok; else kv cleanup \"$e\"; fi\n");
    ExecResult v = headShell.run(Scripts.wrap(verify.toString()), timeout);
    Map<String, String> seenByHead = Scripts.parse(v.stdout()).values();
    String cleanup = seenByHead.get("cleanup");
    String cleanupProblem =
        "ok".equals(cleanup)
            ? null
            : "could not remove "
                + probeDir
                + ": "
                + (cleanup != null ? cleanup : v.error() != null ? v.error() : "no answer");

    out.put(head, new NodeOutcome(head, Status.SHARED, headData, "the head wrote " + probeDir));
    List<String> leftOver = new ArrayList<>();
    for (String n : others) {
      Read r = reads.get(n);
      String p = dataPaths.get(n);
      String where = samePath(p, headData) ? "" : " (its ENROOT_DATA_PATH is " + p + ")";
      NodeOutcome o;
      switch (r.seen()) {
        case "match" -> {
          if (!"ok".equals(r.write())) {
            o =
                new NodeOutcome(
                    n, Status.ERROR, p, "read the head's probe but could not write: " + r.write());
          } else if (nodeTokens.get(n).equals(seenByHead.get("node." + index.get(n)))) {
            o =
                new NodeOutcome(
                    n, Status.SHARED, p, "read the head's probe and the head read its own");
          } else {
            leftOver.add(n);
            o =
                new NodeOutcome(
                    n,
                    Status.NOT_SHARED,
                    p,
                    "read the head's probe, but the head does not see the file " + n + " wrote");
          }
        }
        case "missing" ->
            o =
                new NodeOutcome(
                    n,
                    Status.NOT_SHARED,
                    p,
                    "does not see the head's probe "
                        + probeDir
                        + where
                        + ": not the head's storage");
        case "no-data-path" ->
            o =
                new NodeOutcome(
                    n, Status.NOT_SHARED, p, "has no directory " + p + ": not the head's storage");
        case "other" ->
            o =
                new NodeOutcome(
                    n,
                    Status.NOT_SHARED,
                    p,
                    "sees a different probe file there (\"" + r.detail() + "\")" + where);
        default ->
            o = new NodeOutcome(n, Status.ERROR, p, r.detail() != null ? r.detail() : "no answer");
      }
      out.put(n, o);
    }
    parallel.map(
        leftOver,
        n -> {
          shells
              .get(n)
              .run(
                  "rm -f -- "
                      + ShellQuote.quote(
                          strip(dataPaths.get(n))
                              + "/.clusterrun-probe-"
                              + id
                              + "/node-"
                              + index.get(n))
                      + "; rmdir -- "
                      + ShellQuote.quote(strip(dataPaths.get(n)) + "/.clusterrun-probe-" + id)
                      + " 2>/dev/null; true",
                  timeout);
          return Boolean.TRUE;
        },
        (n, e) -> Boolean.FALSE);
    return new Result(head, probeDir, out, cleanupProblem);
  }

  private record Read(String seen, String write, String detail) {}

  private Read read(
      NodeShell shell, String data, String id, String headToken, int k, String nodeToken) {
    if (shell == null) {
      return new Read("error", null, "no connection");
    }
    if (data == null || data.isEmpty()) {
      return new Read("error", null, "ENROOT_DATA_PATH is not set");
    }
    String d = strip(data) + "/.clusterrun-probe-" + id;
    String body =
        "D="
            + ShellQuote.quote(data)
            + "\nd="
            + ShellQuote.quote(d)
            + "\nif [ ! -d \"$D\" ]; then kv seen no-data-path\n"
            + "elif [ ! -e \"$d/head\" ]; then kv seen missing\n"
            + "elif s=$(cat -- \"$d/head\" 2>&1); then\n"
            + "  if [ \"$s\" = "
            + ShellQuote.quote(headToken)
            + " ]; then\n"
            + "    kv seen match\n"
            + "    if e=$( { printf '%s\\n' "
            + ShellQuote.quote(nodeToken)
            + " >\"$d/node-"
            + k
            + "\"; } 2>&1); then kv write ok; else kv write \"$e\"; fi\n"
            + "  else kv seen other; kv detail \"$s\"; fi\n"
            + "else kv seen error; kv detail \"$s\"; fi";
    ExecResult r = shell.run(Scripts.wrap(body), timeout);
    if (r.error() != null) {
      return new Read("error", null, r.error());
    }
    KeyValues.Parsed p = Scripts.parse(r.stdout());
    String seen = p.values().get("seen");
    if (seen == null) {
      return new Read("error", null, "no answer (exit " + r.exitCode() + ")");
    }
    return new Read(seen, p.values().get("write"), p.values().get("detail"));
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

  private void cleanup(NodeShell head, String probeDir) {
    head.run("rm -rf -- " + ShellQuote.quote(probeDir) + "; true", timeout);
  }
}
