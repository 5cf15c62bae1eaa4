package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.launch.run.RunContext;
import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes of an mpirun run as its daemons' proof sees them: each node's hostname and own mount
 * namespace, and whether a daemon starts there through the agent and must prove itself.
 */
final class ProofNodes {
  private ProofNodes() {}

  /**
   * Every hostfile node with its hostname and own mount namespace, from the checks or asked now
   * (one round over the open session), and whether a daemon starts there through the agent.
   */
  static Map<String, DaemonProof.Node> of(
      RunContext run, Plan plan, Map<String, DaemonProof.Node> known, ChosenHosts chosen)
      throws InterruptedException {
    String head = run.session().head();
    Set<String> chosenHosts = chosen == null ? null : chosen.hosts();
    Map<String, ExecResult> answers = Map.of();
    if (known == null) {
      answers =
          run.session()
              .onEveryShell(
                  s ->
                      s.run(
                          "printf '%s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"",
                          Duration.ofSeconds(30)));
    }
    Map<String, DaemonProof.Node> nodes = new LinkedHashMap<>();
    for (String node : plan.nodes()) {
      boolean viaAgent = !node.equals(head);
      DaemonProof.Node k = known == null ? null : known.get(node);
      String hostname = k != null ? k.hostname() : null;
      String namespace = k != null ? k.namespace() : null;
      if (k == null) {
        ExecResult r = answers.get(node);
        String[] f = r == null ? new String[0] : r.stdout().strip().split("\\s+");
        boolean ok = r != null && r.ok() && f.length == 2;
        hostname = ok ? f[0] : null;
        namespace = ok ? f[1] : null;
      }
      boolean required =
          viaAgent
              && (chosenHosts == null
                  || chosenHosts.contains(node)
                  || (hostname != null && chosenHosts.contains(hostname)));
      nodes.put(node, new DaemonProof.Node(hostname, namespace, viaAgent, required));
    }
    if (chosenHosts != null) {
      List<String> req = new ArrayList<>();
      nodes.forEach(
          (n, e) -> {
            if (e.required()) {
              req.add(n);
            }
          });
      run.say(
          "proof: the job's mpirun arguments choose the hosts ("
              + chosen.by()
              + "): "
              + (chosenHosts.isEmpty()
                  ? "every daemon that starts must prove itself, but none is required"
                  : req.isEmpty()
                      ? "no daemon is required (no other hostfile node is chosen)"
                      : "daemons are required on " + String.join(", ", req) + " only"));
    }
    return nodes;
  }
}
