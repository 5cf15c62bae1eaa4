package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.lines;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes from wherever they come from, end to end on a 3-node local cluster, clusterrun run as the
 * job user on node1: a node list with {@code --slots}, {@code --exclude} and {@code --node-count};
 * each scheduler's allocation in clusterrun's environment with no {@code --nodes} (Slurm with its
 * compressed tasks per node, a PBS node file, LSF's host string), each giving the ranks it says;
 * {@code SLURM_JOBID} passed into the container still proves every daemon (mpirun keeps its ssh
 * launcher); and {@code setup} on nodes that share one {@code /etc/enroot}, twice.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeSourcesIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "ns-hosts", 1, "ns-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

  static List<String> image;

  @BeforeAll
  static void setupAndImage() {
    LocalCluster c = HEAD.cluster();
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = Runs.orTinyImage(c, Runs.requiredImageFlags(c, HEAD.shared() + "/ns-image.sqsh"));
  }

  /** {@code clusterrun run NODE_ARGS --workspace WS IMAGE -- hostname} with {@code env}. */
  static Result hostname(List<String> env, String... nodeArgs) {
    List<String> a = new ArrayList<>(List.of("run"));
    a.addAll(List.of(nodeArgs));
    a.addAll(List.of("--workspace", HEAD.ws()));
    a.addAll(image);
    a.addAll(List.of("--", "hostname"));
    return HEAD.run(RUN_TIMEOUT, env, a);
  }

  /** The hosts the ranks ran on, sorted (one {@code hostname} line per rank). */
  static List<String> ranksOn(Result r) {
    List<String> hosts = new ArrayList<>(lines(r));
    Collections.sort(hosts);
    return hosts;
  }

  @Test
  @Order(1)
  void aNodeListWithSlotsThenExcludeThenNodeCount() {
    Result six = ok(hostname(List.of(), "--nodes", "node[1-3]", "--slots", "2"));
    assertThat(ranksOn(six)).containsExactly("node1", "node1", "node2", "node2", "node3", "node3");
    assertThat(six.stderr()).contains("clusterrun: nodes: 3 from --nodes node[1-3] (--slots 2)");
    JsonNode s = summary(six);
    assertThat(s.path("ranks").asInt()).isEqualTo(6);
    assertThat(s.path("nodesFrom").asText()).isEqualTo("--nodes node[1-3] (--slots 2)");

    Result four = ok(hostname(List.of(), "--nodes", "node[1-3]", "--slots", "2", "-x", "node3"));
    assertThat(ranksOn(four)).containsExactly("node1", "node1", "node2", "node2");

    Result first =
        ok(hostname(List.of(), "--nodes", "node[1-3]", "--slots", "2", "--node-count", "2"));
    assertThat(ranksOn(first)).containsExactly("node1", "node1", "node2", "node2");
  }

  @Test
  @Order(2)
  void slurmsAllocationWithItsCompressedTasksPerNode() {
    Result r =
        ok(
            hostname(
                List.of(
                    "SLURM_JOB_NODELIST=node[1-2]",
                    "SLURM_TASKS_PER_NODE=2(x2)",
                    "SLURM_JOBID=77")));
    assertThat(ranksOn(r)).containsExactly("node1", "node1", "node2", "node2");
    assertThat(r.stderr())
        .contains("clusterrun: nodes: 2 from SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
    assertThat(summary(r).path("nodesFrom").asText())
        .isEqualTo("SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
  }

  @Test
  @Order(3)
  void aPbsNodeFileOneLinePerSlot() {
    String nodefile = HEAD.shared() + "/ns-pbs-nodefile";
    HEAD.cluster().writeAsJobUser(nodefile, "node2\nnode2\nnode3\n");
    Result r = ok(hostname(List.of("PBS_NODEFILE=" + nodefile, "PBS_JOBID=12.pbs")));
    assertThat(ranksOn(r)).containsExactly("node2", "node2", "node3");
    assertThat(summary(r).path("nodesFrom").asText()).startsWith("PBS_NODEFILE (");
  }

  @Test
  @Order(4)
  void lsfsHostString() {
    Result r = ok(hostname(List.of("LSB_MCPU_HOSTS=node1 2 node3 1")));
    assertThat(ranksOn(r)).containsExactly("node1", "node1", "node3");
  }

  @Test
  @Order(5)
  void slurmJobIdPassedIntoTheContainerStillProvesEveryDaemon() {
    Result r =
        ok(
            hostname(
                List.of("SLURM_JOBID=4242", "SLURM_JOB_ID=4242", "SLURM_NODELIST=node[1-3]"),
                "--nodes",
                HEAD.hosts(),
                "--container-env=SLURM_JOBID,SLURM_JOB_ID,SLURM_NODELIST"));
    assertThat(ranksOn(r)).containsExactly("node1", "node2", "node3");
    JsonNode s = summary(r);
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    List<String> proven = new ArrayList<>();
    s.path("proof")
        .forEach(p -> proven.add(p.path("node").asText() + "=" + p.path("proven").asBoolean()));
    assertThat(proven).containsExactlyInAnyOrder("node2=true", "node3=true");
    assertThat(r.stderr()).contains("the daemons on node2, node3 run inside this run's container");
  }

  @Test
  @Order(6)
  void setupOnNodesThatShareOneEtcEnrootWritesItOnceAndTwiceChangesNothing() {
    LocalCluster c = HEAD.cluster();
    ok(c.cluster("share-etc-enroot"));
    try {
      // Another data path than the one set up before: the shared drop-in must change.
      String data = HEAD.shared() + "/enroot-data-shared-etc";
      Result first = HEAD.trySetup(data, Duration.ofSeconds(240));
      System.err.println("--- setup on one shared /etc/enroot\n" + first);
      assertThat(first.exitCode()).as(first.toString()).isZero();
      assertThat(first.stdout() + first.stderr())
          .doesNotContain("failed:")
          .doesNotContain("File exists")
          .contains("node1: changed")
          .contains("node2: changed")
          .contains("node3: changed")
          .contains("setup: 3 changed, 0 unchanged, 0 failed");
      Result second = HEAD.trySetup(data, Duration.ofSeconds(240));
      System.err.println("--- again\n" + second);
      assertThat(second.exitCode()).as(second.toString()).isZero();
      assertThat(second.stdout() + second.stderr())
          .contains("setup: 0 changed, 3 unchanged, 0 failed");
      // One backup of the drop-in it replaced, by the node that wrote it.
      Result backups =
          ok(
              c.exec(
                  "node2",
                  true,
                  "sh",
                  "-c",
                  "ls /etc/enroot/enroot.conf.d | grep -c clusterrun-backup"));
      assertThat(backups.out().strip()).isEqualTo("1");
    } finally {
      ok(c.cluster("unshare-etc-enroot"));
    }
  }
}
