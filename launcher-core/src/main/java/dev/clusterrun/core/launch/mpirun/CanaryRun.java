package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.proof.Canary;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.launch.proof.ProofGate;
import dev.clusterrun.core.launch.run.RunContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canary run ({@code --canary}): a short mpirun of the job's shape whose ranks prove they run
 * inside this run's container ({@link Canary} judges their answers), and its verdict for people.
 */
public final class CanaryRun {
  /** How the launcher starts and supervises one mpirun; its exit code. */
  @FunctionalInterface
  interface Start {
    int run(
        List<String> argv,
        Map<String, String> env,
        OutputStream out,
        OutputStream err,
        ProofGate gate)
        throws IOException, InterruptedException;
  }

  private CanaryRun() {}

  /**
   * Runs the canary of {@code plan} through {@code start} (the launcher's own supervision) and
   * judges its ranks' answers against {@code nodes}.
   */
  static Canary.Verdict run(
      RunContext run, Plan plan, Map<String, DaemonProof.Node> nodes, Start start)
      throws IOException, InterruptedException {
    String head = run.session().head();
    Map<String, Integer> placement = plan.placement().placement(head);
    Map<String, Canary.Expected> expected = new LinkedHashMap<>();
    nodes.forEach(
        (node, n) ->
            expected.put(
                node,
                new Canary.Expected(
                    n.hostname(), n.namespace(), placement.get(node), n.viaAgent())));
    // A token only this run's head writes, read by every rank through the workspace mount.
    byte[] random = new byte[16];
    new SecureRandom().nextBytes(random);
    String token = HexFormat.of().formatHex(random);
    Path tokenFile = run.runDir().resolve(Canary.TOKEN_FILE);
    AtomicFiles.write(tokenFile, token + "\n");
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    // The canary's daemons leave their proof too: taken out of what people see, judged as well.
    ProofGate gate = new ProofGate(new DaemonProof.Tally(nodes, plan.runId()), () -> {});
    try (OutputStream log = Files.newOutputStream(run.runDir().resolve("canary.log"))) {
      OutputStream out = gate.out(buf, log);
      OutputStream err = gate.err(run.console().err(), log);
      int exit = start.run(plan.canaryLaunch(), plan.launchEnv(), out, err, gate);
      out.close();
      err.close();
      if (!gate.opened()) {
        gate.close(run.console().err());
      }
      code = exit;
      String failure = gate.opened() ? null : gate.tally().failure(true);
      if (failure != null) {
        run.note("the canary's launch did not prove itself: " + failure);
        code = code == 0 ? ExitCode.CHECK_FAILED.value() : code;
      }
    } finally {
      Files.deleteIfExists(tokenFile);
    }
    return Canary.judge(
        Canary.parse(buf.toString(StandardCharsets.UTF_8)),
        expected,
        plan.runId(),
        token,
        plan.np(),
        code);
  }

  /** One node's line of the canary's proof, for people. */
  public static String verdictLine(Canary.NodeVerdict v, int np) {
    if (v.node() == null) {
      return v.hostname()
          + ": "
          + v.ranks()
          + " ranks answered from a host clusterrun does not know";
    }
    if (v.ranks() == 0) {
      return v.expected() != null && v.expected() == 0
          ? v.node() + ": no rank placed here (" + np + (np == 1 ? " rank" : " ranks") + " in all)"
          : v.node() + ": no rank answered" + expectedText(v);
    }
    String line = v.node() + ": " + v.inside() + "/" + v.ranks() + " ranks inside the container";
    if (v.outside() > 0) {
      line += "; " + v.outside() + " OUTSIDE";
    }
    if (v.foreign() > 0) {
      line += "; " + v.foreign() + " without this run's launch agent (" + v.foreignDetail() + ")";
    }
    if (v.expected() != null && v.expected() != v.ranks()) {
      line += expectedText(v);
    }
    return line;
  }

  private static String expectedText(Canary.NodeVerdict v) {
    return v.expected() == null ? "" : " (" + v.expected() + " expected by the mapping)";
  }

  /** Why the canary failed, node by node, for the summary and the person. */
  public static String describe(Canary.Verdict c) {
    List<String> parts = new ArrayList<>();
    for (Canary.NodeVerdict v : c.nodes()) {
      if (v.ranks() > 0) {
        parts.addAll(problems(v));
      }
    }
    for (String m : c.missing()) {
      Canary.NodeVerdict v =
          c.nodes().stream().filter(x -> m.equals(x.node())).findFirst().orElse(null);
      parts.add(m + ": no rank answered" + (v == null ? "" : expectedText(v)));
    }
    if (parts.isEmpty() && c.answered() != c.expectedTotal()) {
      parts.add(c.answered() + " of " + c.expectedTotal() + " ranks answered");
    }
    if (c.exitCode() != 0) {
      parts.add("the canary's mpirun exited " + c.exitCode());
    }
    return "canary failed: " + String.join("; ", parts);
  }

  private static List<String> problems(Canary.NodeVerdict v) {
    String who = v.node() != null ? v.node() : v.hostname();
    List<String> parts = new ArrayList<>();
    if (v.node() == null) {
      parts.add(who + ": ranks answered from a host clusterrun does not know");
      return parts;
    }
    if (v.nodeNamespace() == null) {
      parts.add(who + ": its own mount namespace is unknown (the node did not answer over SSH)");
    }
    if (v.outside() > 0) {
      parts.add(
          who
              + ": "
              + v.outside()
              + " of "
              + v.ranks()
              + " ranks ran OUTSIDE the container (is the clusterrun hook executable? run"
              + " `clusterrun check`)");
    }
    if (v.foreign() > 0) {
      parts.add(
          who
              + ": "
              + v.foreign()
              + " of "
              + v.ranks()
              + " ranks ran in a container without this run's launch agent ("
              + v.foreignDetail()
              + "): another hook or setting replaces clusterrun's agent (run `clusterrun"
              + " check`, see launch-agent)");
    }
    if (v.expected() != null && v.expected() != v.ranks()) {
      parts.add(who + ": " + v.ranks() + " ranks answered, " + v.expected() + " expected");
    }
    return parts;
  }
}
