package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The local cluster at the size where clusterrun's fan-out, the hostfile and Open MPI's tree spawn
 * start to matter: 64 nodes, each with its own sshd, name and address, reachable by name with
 * strict host keys, one Open MPI job across all of them, and a {@code down} that leaves nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterScaleIT {
  static final int NODES = 64;

  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(NODES);

  static LocalCluster c() {
    return CLUSTER.cluster();
  }

  @Test
  @Order(1)
  void everyNodeHasItsOwnNameAddressAndHostKeyInEveryUsersKnownHosts() throws IOException {
    LocalCluster c = c();
    assertThat(c.nodes()).hasSize(NODES).last().isEqualTo("node" + NODES);
    List<String> addresses = new ArrayList<>();
    for (String node : c.nodes()) {
      addresses.add(c.address(node));
    }
    assertThat(addresses).doesNotHaveDuplicates().allMatch(a -> a.startsWith("10.213.77."));
    String hosts = Files.readString(Paths.get("/etc/hosts"));
    for (String node : c.nodes()) {
      assertThat(hosts).contains(c.address(node) + " " + node + "\n");
    }
    for (Path kh : List.of(c.user1().knownHosts(), c.user2().knownHosts())) {
      List<String> lines = Files.readAllLines(kh);
      assertThat(lines).hasSize(NODES);
      assertThat(lines.stream().map(l -> l.split(" ")[2]).distinct()).hasSize(NODES);
    }
  }

  @Test
  @Order(2)
  void theLastNodeReachesTheFirstAndTheFirstTheLastByNameWithStrictHostKeys() {
    String last = "node" + NODES;
    for (String[] pair : new String[][] {{last, "node1"}, {"node1", last}}) {
      Result r =
          c().exec(
                  pair[0],
                  "ssh",
                  "-o",
                  "BatchMode=yes",
                  "-o",
                  "StrictHostKeyChecking=yes",
                  pair[1],
                  "hostname");
      assertThat(ok(r).out()).isEqualTo(pair[1]);
    }
  }

  @Test
  @Order(3)
  void oneOpenMpiJobRunsARankOnEveryNode() {
    LocalCluster c = c();
    String hosts = c.sharedDir() + "/scale-hosts";
    Result w = c.exec("node1", false, c.hostfile(1), Duration.ofSeconds(30), List.of("tee", hosts));
    ok(w);
    Result r =
        c.exec(
            "node1",
            false,
            null,
            Duration.ofSeconds(240),
            List.of(
                "mpirun",
                "--hostfile",
                hosts,
                "-np",
                Integer.toString(NODES),
                "--mca",
                "oob_tcp_if_include",
                c.subnet(),
                "hostname"));
    ok(r);
    Map<String, Integer> ranks = new HashMap<>();
    for (String l : r.stdout().split("\n")) {
      ranks.merge(l.strip(), 1, Integer::sum);
    }
    Map<String, Integer> expected = new HashMap<>();
    for (String node : c.nodes()) {
      expected.put(node, 1);
    }
    assertThat(ranks).isEqualTo(expected);
  }

  @Test
  @Order(100)
  void downLeavesNothingBehind() throws IOException {
    LocalCluster c = c();
    Path stateDir = c.stateDir();
    c.down();
    assertThat(LocalClusterIT.hostCommand("ip", "netns", "list")).doesNotContain("crlc-");
    assertThat(LocalClusterIT.hostCommand("ip", "-o", "link", "show")).doesNotContain("crlc");
    assertThat(Files.readString(Paths.get("/etc/hosts")))
        .doesNotContain("clusterrun-local-cluster");
    assertThat(Files.exists(stateDir)).isFalse();
    assertThat(LocalClusterIT.hostCommand("pgrep", "-f", "crlc-holder-")).isEmpty();
  }
}
