package dev.clusterrun.core.check;

import dev.clusterrun.core.remote.ShellQuote;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One directory's probe in the shared-path proof: its directory, each node's index (its answers'
 * keys), token and file; and the commands of its rounds, as calls of the functions of {@code
 * proof.sh} with their arguments quoted ({@link ShellQuote}).
 */
final class ProofProbe {
  /** The proof's functions ({@code proof.sh}), defined before the calls. */
  private static final String FUNCTIONS = Scripts.resource("proof.sh");

  final int index;
  final SharedPathProof.Subject sub;
  final String headDir;
  final String dir;
  final String id;
  final String headToken;
  final Map<String, Integer> nodeIndex = new LinkedHashMap<>();
  final Map<String, String> nodeTokens = new LinkedHashMap<>();
  final Map<String, String> nodeFiles = new LinkedHashMap<>();

  /** A node's hostname (its file is named after it), or null: files by index. */
  final Function<String, String> hostOf;

  ProofProbe(
      int index,
      SharedPathProof.Subject sub,
      String headDir,
      String id,
      String headToken,
      Function<String, String> tokenOf,
      BiFunction<String, Integer, String> fileOf,
      Function<String, String> hostOf) {
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

  private ProofProbe(ProofProbe p, String newId) {
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
  static ProofProbe own(
      int index, SharedPathProof.Subject sub, String headDir, Supplier<String> tokens) {
    return new ProofProbe(
        index,
        sub,
        headDir,
        newId(tokens),
        tokens.get(),
        n -> tokens.get(),
        (n, k) -> "node-" + k,
        null);
  }

  static String newId(Supplier<String> tokens) {
    return ".clusterrun-probe-" + tokens.get();
  }

  /** This probe under the name {@code newId} (its directory renamed), answers and all. */
  ProofProbe renamed(String newId) {
    return new ProofProbe(this, newId);
  }

  /** The key of this probe's answer {@code what}. */
  String key(String what) {
    return "p" + index + "." + what;
  }

  /** A command of calls: the functions, the calls, each answer between the begin and end lines. */
  static String script(String calls) {
    return Scripts.wrap(FUNCTIONS + calls);
  }

  /** The calls of {@code probes}, one after the other. */
  static String all(List<ProofProbe> probes, Function<ProofProbe, String> call) {
    StringBuilder b = new StringBuilder();
    for (ProofProbe p : probes) {
      b.append(call.apply(p));
    }
    return b.toString();
  }

  /** One call: {@code function} with {@code args}, each quoted. */
  static String call(String function, Object... args) {
    List<String> words = new ArrayList<>(List.of(function));
    for (Object a : args) {
      words.add(String.valueOf(a));
    }
    return ShellQuote.join(words) + "\n";
  }

  /** One call of words that are shell words already (quoted, or the caller's own expansions). */
  static String line(String... shellWords) {
    return String.join(" ", shellWords) + "\n";
  }

  /** {@code v} as one shell word. */
  static String q(Object v) {
    return ShellQuote.quote(String.valueOf(v));
  }

  /** The head's write. */
  String writeCall() {
    return call("cr_proof_write", index, headDir, sub.create() ? 1 : 0, id, headToken);
  }

  /** {@code node}'s read, and its answer in the file of its index. */
  String readCall(String node) {
    String data = sub.paths().get(node);
    if (data == null) {
      return "";
    }
    String token = nodeTokens.get(node);
    return hostOf == null
        ? call("cr_proof_read", index, data, id, headToken, token, nodeFiles.get(node))
        : call("cr_proof_read", index, data, id, headToken, token, "", hostOf.apply(node));
  }

  /** The head reads back what the nodes of {@code answered} wrote, then removes the probe. */
  String verifyCalls(List<String> answered) {
    StringBuilder b = new StringBuilder();
    for (String n : answered) {
      b.append(
          call("cr_proof_collect", key("node." + nodeIndex.get(n)), dir + "/" + nodeFiles.get(n)));
    }
    return b.append(call("cr_proof_remove", index, dir)).toString();
  }

  /** The head renames this probe's directory to {@code to}'s. */
  String renameCall(ProofProbe to) {
    return call("cr_proof_rename", index, dir, to.dir);
  }

  /** Removes what {@code n} wrote where the head could not see it. */
  String discardCall(String n) {
    String own = strip(sub.paths().get(n)) + "/" + id;
    return call("cr_proof_discard", own + "/" + nodeFiles.get(n), own);
  }

  static boolean samePath(String a, String b) {
    return a != null && b != null && strip(a).equals(strip(b));
  }

  static String strip(String p) {
    String s = p;
    while (s.length() > 1 && s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}
