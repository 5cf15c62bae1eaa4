package dev.clusterrun.core.check;

import dev.clusterrun.core.check.SharedPathProof.Status;
import dev.clusterrun.core.check.SharedPathProof.Verdict;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.FanOut;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shared-path proof's rounds after the head wrote its probes: every other node reads every
 * probe through its own path and writes its own answer (round 2), then the head reads those back
 * and removes the probe directories (round 3). The head's write is round 1 of {@link
 * SharedPathProof#prove}, or rode on the session's opening round ({@link CarriedProof}), where most
 * nodes also answered round 2 already.
 */
final class ProofRounds {
  private final FanOut fanOut;
  private final Duration timeout;
  private final Supplier<String> tokens;

  ProofRounds(FanOut fanOut, Duration timeout, Supplier<String> tokens) {
    this.fanOut = fanOut;
    this.timeout = timeout;
    this.tokens = tokens;
  }

  /**
   * Rounds 2 and 3 after the head wrote the probes ({@code w}, its answer): the nodes of {@code
   * early} that saw every probe and answered in an earlier command are not asked again.
   *
   * @param verdicts the verdicts so far, by subject; the probes' are filled in
   * @return the verdicts, in order (null for a subject that was not asked)
   */
  List<Verdict> run(
      String head,
      Map<String, NodeShell> shells,
      List<ProofProbe> probes,
      Verdict[] verdicts,
      ExecResult w,
      Map<String, ExecResult> early)
      throws InterruptedException {
    NodeShell headShell = shells.get(head);
    List<ProofProbe> written = written(head, headShell, probes, verdicts, w);
    // 2. Every other node reads every probe through its own path and answers with its own token;
    // a node that answered every probe earlier, having seen the head's, is not asked again.
    Map<String, Map<String, String>> earlier = new LinkedHashMap<>();
    early.forEach((n, r) -> earlier.put(n, answers(r)));
    List<String> others = new ArrayList<>();
    for (ProofProbe p : written) {
      for (String n : p.sub.paths().keySet()) {
        if (!n.equals(head) && !others.contains(n)) {
          others.add(n);
        }
      }
    }
    List<String> ask = new ArrayList<>();
    for (String n : others) {
      Map<String, String> e = earlier.get(n);
      if (e == null || !written.stream().allMatch(p -> "match".equals(e.get(p.key("seen"))))) {
        ask.add(n);
      }
    }
    if (ask.stream().anyMatch(earlier::containsKey)) {
      written = renamed(headShell, written);
    }
    List<ProofProbe> toRead = written;
    Map<String, Map<String, String>> asked =
        fanOut.byNode(ask, n -> readAll(shells.get(n), n, toRead));
    Map<String, Map<String, String>> reads = new LinkedHashMap<>();
    for (String n : others) {
      reads.put(n, asked.containsKey(n) ? asked.get(n) : earlier.get(n));
    }
    verify(head, shells, written, reads, verdicts);
    return Collections.unmodifiableList(Arrays.asList(verdicts));
  }

  /** The probes the head wrote; the others get their verdict, and their directory removed. */
  private List<ProofProbe> written(
      String head, NodeShell headShell, List<ProofProbe> probes, Verdict[] verdicts, ExecResult w) {
    Map<String, String> wrote = Scripts.parse(w.stdout()).values();
    List<ProofProbe> written = new ArrayList<>();
    StringBuilder removeFailed = new StringBuilder();
    for (ProofProbe p : probes) {
      String problem = ProofJudge.headWriteProblem(p, w, wrote);
      if (problem == null) {
        written.add(p);
        continue;
      }
      removeFailed.append(ProofProbe.call("cr_proof_remove", p.index, p.dir));
      String mk = wrote.get(p.key("mkdir"));
      if (p.sub.create() && !"ok".equals(mk)) {
        mk = mk != null ? mk : problem;
      }
      verdicts[p.index] =
          mk != null && !"ok".equals(mk)
              ? new Verdict(head, null, Map.of(), mk, null)
              : SharedPathProof.everyNode(
                  head,
                  p.dir,
                  p.sub.paths(),
                  Status.ERROR,
                  "the head could not write " + p.dir + ": " + problem);
    }
    if (removeFailed.length() > 0) {
      headShell.run(ProofProbe.script(removeFailed.toString()), timeout);
    }
    return written;
  }

  /** 3. The head reads back what the nodes wrote, then removes every probe directory. */
  private void verify(
      String head,
      Map<String, NodeShell> shells,
      List<ProofProbe> written,
      Map<String, Map<String, String>> reads,
      Verdict[] verdicts)
      throws InterruptedException {
    ExecResult v =
        shells
            .get(head)
            .run(
                ProofProbe.script(
                    ProofProbe.all(written, p -> p.verifyCalls(wrote(p, head, reads)))),
                timeout);
    Map<String, String> seenByHead = Scripts.parse(v.stdout()).values();
    Map<String, StringBuilder> leftOver = new LinkedHashMap<>();
    for (ProofProbe p : written) {
      verdicts[p.index] = ProofJudge.verdict(p, head, reads, seenByHead, v, leftOver);
    }
    fanOut.map(
        new ArrayList<>(leftOver.keySet()),
        n -> {
          try {
            return shells.get(n).run(ProofProbe.script(leftOver.get(n).toString()), timeout).ok();
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  /** The nodes other than the head that read {@code p}'s probe and wrote their answer. */
  private static List<String> wrote(
      ProofProbe p, String head, Map<String, Map<String, String>> reads) {
    List<String> out = new ArrayList<>();
    for (String n : p.sub.paths().keySet()) {
      ProofJudge.Read r = ProofJudge.read(p, n.equals(head) ? null : reads.get(n));
      if (!n.equals(head) && "match".equals(r.seen()) && "ok".equals(r.write())) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * The probes under new names, for the nodes asked again after they looked in their first command:
   * a node that looked the probe's name up before the head had made it may go on seeing it missing
   * (an NFS client keeps a failed lookup while it holds the directory's attributes as fresh:
   * nfs(5), {@code lookupcache}), while a name it never looked up it asks the server for. The head
   * renames each probe directory (the answers already in it move along); a probe it could not
   * rename keeps its name.
   */
  private List<ProofProbe> renamed(NodeShell headShell, List<ProofProbe> probes) {
    List<ProofProbe> next = new ArrayList<>();
    for (ProofProbe p : probes) {
      next.add(p.renamed(ProofProbe.newId(tokens)));
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < probes.size(); i++) {
      b.append(probes.get(i).renameCall(next.get(i)));
    }
    Map<String, String> done;
    try {
      done =
          Scripts.parse(headShell.run(ProofProbe.script(b.toString()), timeout).stdout()).values();
    } catch (RuntimeException e) {
      done = Map.of();
    }
    List<ProofProbe> out = new ArrayList<>();
    for (int i = 0; i < probes.size(); i++) {
      out.add("ok".equals(done.get(probes.get(i).key("renamed"))) ? next.get(i) : probes.get(i));
    }
    return out;
  }

  /** One node's reads of every probe, in one command: the raw answers, keyed. */
  private Map<String, String> readAll(NodeShell shell, String node, List<ProofProbe> probes) {
    if (shell == null) {
      return Map.of("error", "no connection");
    }
    try {
      return answers(
          shell.run(ProofProbe.script(ProofProbe.all(probes, p -> p.readCall(node))), timeout));
    } catch (RuntimeException e) {
      return Map.of("error", e.toString());
    }
  }

  /** A node's answers in one command, keyed, with its exit code; its error alone when it failed. */
  private static Map<String, String> answers(ExecResult r) {
    if (r.error() != null) {
      return Map.of("error", r.error());
    }
    Map<String, String> m = new LinkedHashMap<>(Scripts.parse(r.stdout()).values());
    m.put("exit", Integer.toString(r.exitCode()));
    return m;
  }
}
