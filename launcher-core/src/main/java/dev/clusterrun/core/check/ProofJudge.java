package dev.clusterrun.core.check;

import dev.clusterrun.core.check.SharedPathProof.NodeProof;
import dev.clusterrun.core.check.SharedPathProof.Status;
import dev.clusterrun.core.check.SharedPathProof.Verdict;
import dev.clusterrun.core.remote.ExecResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shared-path proof's judging: what each node answered for a probe ({@code proof.sh}'s keyed
 * lines), and the verdict from those answers and what the head read back.
 */
final class ProofJudge {
  private ProofJudge() {}

  /** What one node saw of the head's probe, and whether it could write its own. */
  record Read(String seen, String write, String detail) {}

  /** Null when the head wrote its token for {@code p}, else why not. */
  static String headWriteProblem(ProofProbe p, ExecResult w, Map<String, String> wrote) {
    String ok = wrote.get(p.key("write"));
    if (w.error() == null && "ok".equals(ok)) {
      return null;
    }
    return w.error() != null
        ? w.error()
        : ok != null ? ok : "no answer (exit " + w.exitCode() + ")";
  }

  /** What a node answered for {@code p} ({@code answers}: its keyed lines, or null for none). */
  static Read read(ProofProbe p, Map<String, String> answers) {
    if (answers == null) {
      return new Read("error", null, "no answer");
    }
    String seen = answers.get(p.key("seen"));
    if (seen == null) {
      String error = answers.get("error");
      return new Read(
          "error", null, error != null ? error : "no answer (exit " + answers.get("exit") + ")");
    }
    return new Read(seen, answers.get(p.key("write")), answers.get(p.key("detail")));
  }

  /**
   * The verdict, from every node's answers and what the head read back; nodes whose own file the
   * head could not see get a command to remove it in {@code leftOver}.
   */
  static Verdict verdict(
      ProofProbe p,
      String head,
      Map<String, Map<String, String>> reads,
      Map<String, String> seenByHead,
      ExecResult v,
      Map<String, StringBuilder> leftOver) {
    String cleanup = seenByHead.get(p.key("cleanup"));
    String cleanupProblem =
        "ok".equals(cleanup)
            ? null
            : "could not remove "
                + p.dir
                + ": "
                + (cleanup != null ? cleanup : v.error() != null ? v.error() : "no answer");
    Map<String, NodeProof> out = new LinkedHashMap<>();
    out.put(head, new NodeProof(head, Status.SHARED, p.headDir, "the head wrote " + p.dir));
    for (String n : p.sub.paths().keySet()) {
      if (n.equals(head)) {
        continue;
      }
      Read r = read(p, reads.get(n));
      NodeProof np = judge(p, n, r, seenByHead);
      if (np.status() == Status.NOT_SHARED && "match".equals(r.seen())) {
        leftOver.computeIfAbsent(n, k -> new StringBuilder()).append(p.discardCall(n));
      }
      out.put(n, np);
    }
    return new Verdict(head, p.dir, out, null, cleanupProblem);
  }

  private static NodeProof judge(ProofProbe pr, String n, Read r, Map<String, String> seenByHead) {
    String p = pr.sub.paths().get(n);
    String where = ProofProbe.samePath(p, pr.headDir) ? "" : " (its ENROOT_DATA_PATH is " + p + ")";
    return switch (r.seen()) {
      case "match" -> {
        if (!"ok".equals(r.write())) {
          yield new NodeProof(
              n, Status.ERROR, p, "read the head's probe but could not write: " + r.write());
        } else if (pr.nodeTokens
            .get(n)
            .equals(seenByHead.get(pr.key("node." + pr.nodeIndex.get(n))))) {
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
              "does not see the head's probe " + pr.dir + where + ": not the head's storage");
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
}
