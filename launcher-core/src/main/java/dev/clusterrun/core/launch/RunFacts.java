package dev.clusterrun.core.launch;

import dev.clusterrun.core.check.AgentMention;
import dev.clusterrun.core.check.CheckReport;
import dev.clusterrun.core.check.FactParser;
import dev.clusterrun.core.check.Facts;
import dev.clusterrun.core.check.RegistryFacts;
import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.launch.proof.DaemonProof;
import dev.clusterrun.core.remote.ExecResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run reads from the nodes' facts ({@link Facts}, gathered by the checks or the head's first
 * answer): the one place the run path reads them.
 */
final class RunFacts {
  private RunFacts() {}

  /** The head's facts from its first answer, or null when it gave none. */
  static Facts headAnswer(String head, ExecResult answer) {
    Facts f = FactParser.parse(head, answer);
    return f.answered() ? f : null;
  }

  /** The head's facts as the checks read them, or null (no checks, or no answer). */
  static Facts head(CheckReport report, String head) {
    return report == null ? null : report.facts().get(head);
  }

  /** The node's ENROOT_DATA_PATH, or null. */
  static String dataPath(Facts f) {
    return f == null ? null : f.storage().dataPath();
  }

  /** How the head reaches the registry: its enroot settings. */
  static ImagePin.Outcome pin(ImagePin pin, Facts head) {
    return pin.resolve(ImagePin.settings(RegistryFacts.enrootValues(head)));
  }

  /**
   * The head's SSH masters for mpirun's ssh, or null when the head's facts ({@code f}) show that
   * its enroot configuration or environment names an rsh/ssh agent of its own (mpirun's ssh is then
   * not the one the probe ran).
   */
  static String usableMasters(String dir, Facts f) {
    if (dir == null || f == null) {
      return null;
    }
    for (AgentMention m : f.mpi().agents()) {
      if (m.active() && !m.comment() && !m.variable().endsWith("launch_agent")) {
        return null;
      }
    }
    return dir;
  }

  /** Each node's hostname and own mount namespace, as the checks read them. */
  static Map<String, DaemonProof.Node> knownNodes(CheckReport report) {
    Map<String, DaemonProof.Node> m = new LinkedHashMap<>();
    report
        .facts()
        .forEach(
            (node, f) -> {
              if (f.problem() == null
                  && f.host().hostname() != null
                  && f.host().mountNamespace() != null) {
                m.put(
                    node,
                    new DaemonProof.Node(f.host().hostname(), f.host().mountNamespace(), true));
              }
            });
    return m;
  }
}
