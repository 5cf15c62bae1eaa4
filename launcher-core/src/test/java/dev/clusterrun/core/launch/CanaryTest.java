package dev.clusterrun.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanaryTest {
  @Test
  void theCanaryCommandReallyPrintsHostnameAndNamespace() throws Exception {
    Process p = new ProcessBuilder(Canary.command()).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    List<Canary.Rank> ranks = Canary.parse("noise\n" + out);
    assertThat(ranks).hasSize(1);
    assertThat(ranks.get(0).mountNamespace()).startsWith("mnt:[");
  }

  @Test
  void aRankInTheNodesOwnNamespaceRanOutsideTheContainer() {
    Map<String, String> nodes = new LinkedHashMap<>();
    nodes.put("node1", "mnt:[1]");
    nodes.put("node2", "mnt:[2]");
    nodes.put("node3", "mnt:[3]");
    String out =
        String.join(
            "\n",
            "clusterrun-canary node1 mnt:[101]",
            "clusterrun-canary node1 mnt:[101]",
            "clusterrun-canary node2 mnt:[2]",
            "[1,3]<stdout>:clusterrun-canary node2 mnt:[202]");
    Canary.Result r = Canary.judge(Canary.parse(out), nodes, 0);
    assertThat(r.ok()).isFalse();
    assertThat(r.missing()).containsExactly("node3");
    assertThat(r.nodes())
        .extracting(Canary.NodeVerdict::hostname)
        .containsExactly("node1", "node2");
    assertThat(r.nodes().get(0).ok()).isTrue();
    assertThat(r.nodes().get(1).outside()).isEqualTo(1);
    assertThat(JobRunner.describe(r))
        .contains("node2: 1 of 2 ranks ran OUTSIDE the container")
        .contains("node3: no rank answered");
  }

  @Test
  void allInsideAndEveryNodeAnsweringPasses() {
    Canary.Result r =
        Canary.judge(
            Canary.parse("clusterrun-canary a mnt:[9]\nclusterrun-canary b mnt:[8]\n"),
            Map.of("a", "mnt:[1]", "b", "mnt:[2]"),
            0);
    assertThat(r.ok()).isTrue();
    assertThat(Canary.judge(List.of(), Map.of("a", "x"), 0).ok()).isFalse();
  }

  @Test
  void openMpiVersionIsRead() {
    assertThat(JobRunner.openMpiVersion("mpirun (Open MPI) 4.1.4\n\nReport bugs"))
        .isEqualTo("4.1.4");
    assertThat(JobRunner.openMpiVersion("mpirun (Open MPI) 5.0.3")).isEqualTo("5.0.3");
    assertThat(JobRunner.openMpiVersion("bash: mpirun: command not found")).isNull();
  }
}
