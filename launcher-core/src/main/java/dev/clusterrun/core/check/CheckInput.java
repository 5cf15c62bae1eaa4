package dev.clusterrun.core.check;

import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.image.ImagePin;
import java.util.List;
import java.util.Map;

/**
 * Everything the pure {@link Checks} look at.
 *
 * @param nodes the nodes in report order (hostfile order; the head too)
 * @param head the node clusterrun runs on, where mpirun will start
 * @param facts every node's facts (an unanswered node has a problem in its facts)
 * @param hosts hostfile lines by node name, for slots (the head may be missing)
 * @param proof the shared-path proof, or {@code null} when it was not run
 * @param ssh head-to-node SSH outcomes, or {@code null} when not probed
 * @param image the job's registry image as the head resolved it, or {@code null} (no registry
 *     image, or not asked)
 */
public record CheckInput(
    List<String> nodes,
    String head,
    Map<String, Facts> facts,
    Map<String, Host> hosts,
    SharedPathProof.Verdict proof,
    Map<String, NodeToNodeSsh.Answer> ssh,
    CheckJob job,
    ExpectedSetup expected,
    ImagePin.Outcome image) {
  public CheckInput {
    nodes = List.copyOf(nodes);
    facts = Map.copyOf(facts);
    hosts = hosts == null ? Map.of() : Map.copyOf(hosts);
    job = job == null ? CheckJob.NONE : job;
  }
}
