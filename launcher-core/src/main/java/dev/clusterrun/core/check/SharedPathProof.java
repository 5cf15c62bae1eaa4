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
   * The head creates {@code path} (as the job user; on a shared filesystem that makes it appear
   * everywhere), then the proof runs on exactly that path on every node of the session.
   */
  public static Verdict ofDirectory(Session session, String path, Duration timeout)
      throws InterruptedException {
    ExecResult mk = session.headShell().run("mkdir -p -- " + ShellQuote.quote(path), timeout);
    if (!mk.ok()) {
      String why = mk.error() != null ? mk.error() : mk.stderr().strip();
      return new Verdict(session.head(), null, Map.of(), why, null);
    }
    Map<String, String> paths = new LinkedHashMap<>();
    session.shells().keySet().forEach(n -> paths.put(n, path));
    return new SharedPathProof(session.fanOut(), timeout)
        .prove(session.head(), session.shells(), paths);
  }

  /**
   * Runs the proof.
   *
   * @param head the node clusterrun runs on (writes first, reads last)
   * @param shells open shells, at least for the head and every node in {@code paths}
   * @param paths each node's directory to prove (from its facts); the head's included
   */
  public Verdict prove(String head, Map<String, NodeShell> shells, Map<String, String> paths)
      throws InterruptedException {
    String headDir = paths.get(head);
    if (headDir == null || headDir.isEmpty() || shells.get(head) == null) {
      return everyNode(head, null, paths, Status.ERROR, "the head has no data path");
    }
    Probe probe = new Probe(strip(headDir) + "/.clusterrun-probe-" + tokens.get());
    NodeShell headShell = shells.get(head);
    String headToken = tokens.get();
    String writeProblem = probe.headWrites(headShell, headToken);
    if (writeProblem != null) {
      headShell.run("rm -rf -- " + ShellQuote.quote(probe.dir) + "; true", timeout);
      return everyNode(
          head,
          probe.dir,
          paths,
          Status.ERROR,
          "the head could not write " + probe.dir + ": " + writeProblem);
    }
    // Every other node reads the head's token through its own path and answers with its own.
    List<String> others = new ArrayList<>();
    for (String n : paths.keySet()) {
      if (!n.equals(head)) {
        probe.index.put(n, others.size());
        probe.nodeTokens.put(n, tokens.get());
        others.add(n);
      }
    }
    Map<String, Read> reads =
        fanOut.byNode(others, n -> probe.read(shells.get(n), paths.get(n), n, headToken));
    ExecResult v = headShell.run(Scripts.wrap(probe.verifyScript(others, reads)), timeout);
    Map<String, String> seenByHead = Scripts.parse(v.stdout()).values();
    String cleanup = seenByHead.get("cleanup");
    String cleanupProblem =
        "ok".equals(cleanup)
            ? null
            : "could not remove "
                + probe.dir
                + ": "
                + (cleanup != null ? cleanup : v.error() != null ? v.error() : "no answer");
    Map<String, NodeProof> out = new LinkedHashMap<>();
    out.put(head, new NodeProof(head, Status.SHARED, headDir, "the head wrote " + probe.dir));
    List<String> leftOver = new ArrayList<>();
    for (String n : others) {
      NodeProof p = probe.judge(n, paths.get(n), headDir, reads.get(n), seenByHead);
      if (p.status() == Status.NOT_SHARED && "match".equals(reads.get(n).seen())) {
        leftOver.add(n);
      }
      out.put(n, p);
    }
    fanOut.map(
        leftOver,
        n -> {
          try {
            return shells.get(n).run(probe.removeOwnScript(paths.get(n), n), timeout).ok();
          } catch (RuntimeException e) {
            return false;
          }
        });
    return new Verdict(head, probe.dir, out, null, cleanupProblem);
  }

  private static Verdict everyNode(
      String head, String probeDir, Map<String, String> paths, Status status, String detail) {
    Map<String, NodeProof> out = new LinkedHashMap<>();
    paths.forEach((n, p) -> out.put(n, new NodeProof(n, status, p, detail)));
    return new Verdict(head, probeDir, out, null, null);
  }

  /** What one node saw of the head's probe, and whether it could write its own. */
  private record Read(String seen, String write, String detail) {}

  /** One run of the proof: the probe directory, each node's index and token. */
  private final class Probe {
    final String dir;
    final String id;
    final Map<String, Integer> index = new LinkedHashMap<>();
    final Map<String, String> nodeTokens = new LinkedHashMap<>();

    Probe(String dir) {
      this.dir = dir;
      this.id = dir.substring(dir.lastIndexOf('/') + 1);
    }

    /** Null when the head wrote its token, else why not. */
    String headWrites(NodeShell headShell, String headToken) {
      ExecResult w =
          headShell.run(
              Scripts.wrap(
                  "d="
                      + ShellQuote.quote(dir)
                      + "\nif e=$( { mkdir -p -- \"$d\" && printf '%s\\n' "
                      + ShellQuote.quote(headToken)
                      + " >\"$d/head\"; } 2>&1); then kv write ok; else kv write \"$e\"; fi"),
              timeout);
      String wrote = Scripts.parse(w.stdout()).values().get("write");
      if (w.error() == null && "ok".equals(wrote)) {
        return null;
      }
      return w.error() != null
          ? w.error()
          : wrote != null ? wrote : "no answer (exit " + w.exitCode() + ")";
    }

    Read read(NodeShell shell, String data, String node, String headToken) {
      try {
        return readOrThrow(shell, data, node, headToken);
      } catch (RuntimeException e) {
        return new Read("error", null, e.toString());
      }
    }

    private Read readOrThrow(NodeShell shell, String data, String node, String headToken) {
      if (shell == null) {
        return new Read("error", null, "no connection");
      }
      if (data == null || data.isEmpty()) {
        return new Read("error", null, "ENROOT_DATA_PATH is not set");
      }
      String d = strip(data) + "/" + id;
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
              + ShellQuote.quote(nodeTokens.get(node))
              + " >\"$d/node-"
              + index.get(node)
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

    /** The head reads back what the nodes wrote, then removes the probe directory. */
    String verifyScript(List<String> others, Map<String, Read> reads) {
      StringBuilder verify = new StringBuilder("d=" + ShellQuote.quote(dir) + "\n");
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
      return verify.toString();
    }

    NodeProof judge(String n, String p, String headDir, Read r, Map<String, String> seenByHead) {
      String where = samePath(p, headDir) ? "" : " (its ENROOT_DATA_PATH is " + p + ")";
      return switch (r.seen()) {
        case "match" -> {
          if (!"ok".equals(r.write())) {
            yield new NodeProof(
                n, Status.ERROR, p, "read the head's probe but could not write: " + r.write());
          } else if (nodeTokens.get(n).equals(seenByHead.get("node." + index.get(n)))) {
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
    String removeOwnScript(String data, String n) {
      String own = strip(data) + "/" + id;
      return "rm -f -- "
          + ShellQuote.quote(own + "/node-" + index.get(n))
          + "; rmdir -- "
          + ShellQuote.quote(own)
          + " 2>/dev/null; true";
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
