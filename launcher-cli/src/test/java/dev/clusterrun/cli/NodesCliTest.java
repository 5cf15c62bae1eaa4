package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.cli.CliTest.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --nodes} as a node list or a hostfile, {@code --slots}, {@code --exclude}, {@code
 * --node-count} and the scheduler's allocation, on every command that takes nodes: what {@code
 * plan} makes of them, and bad input as one line naming the flag, never a stack trace.
 */
class NodesCliTest {
  static Run plan(Map<String, String> env, String... nodeArgs) {
    List<String> a = new ArrayList<>(List.of("plan", "--json"));
    a.addAll(List.of(nodeArgs));
    a.addAll(List.of("--container-image=img.sqsh", "--", "hostname"));
    Map<String, String> e = new HashMap<>(env);
    e.put("HOME", "/home/tester");
    return CliTest.run(e, a.toArray(String[]::new));
  }

  static Run plan(String... nodeArgs) {
    return plan(Map.of(), nodeArgs);
  }

  @Test
  void aNodeListWithSlotsExcludeAndNodeCount() throws Exception {
    JsonNode p = plan("--nodes", "node[1-3]", "--slots", "2").okJson();
    assertThat(p.path("np").asInt()).isEqualTo(6);
    assertThat(p.path("nodesFrom").asText()).isEqualTo("--nodes node[1-3] (--slots 2)");
    JsonNode x = plan("--nodes", "node[1-3]", "--slots", "2", "-x", "node3").okJson();
    assertThat(x.path("np").asInt()).isEqualTo(4);
    assertThat(x.path("nodes").toString()).isEqualTo("[\"node1\",\"node2\"]");
    JsonNode c = plan("--nodes", "node[1-3]", "--slots", "2", "--node-count", "2").okJson();
    assertThat(c.path("np").asInt()).isEqualTo(4);
    JsonNode h = plan("--nodes", "gpu01:8,gpu[02-03]:4").okJson();
    assertThat(h.path("np").asInt()).isEqualTo(16);
  }

  @Test
  void anAllocationWhenNodesIsAbsentAndNodesWins() throws Exception {
    Map<String, String> slurm =
        Map.of("SLURM_JOB_NODELIST", "node[1-2]", "SLURM_TASKS_PER_NODE", "2(x2)");
    JsonNode s = plan(slurm).okJson();
    assertThat(s.path("np").asInt()).isEqualTo(4);
    assertThat(s.path("nodesFrom").asText())
        .isEqualTo("SLURM_JOB_NODELIST (slots from SLURM_TASKS_PER_NODE)");
    JsonNode lsf = plan(Map.of("LSB_MCPU_HOSTS", "node1 3 node2 1")).okJson();
    assertThat(lsf.path("np").asInt()).isEqualTo(4);
    JsonNode given = plan(slurm, "--nodes", "a,b,c").okJson();
    assertThat(given.path("np").asInt()).isEqualTo(3);
  }

  @Test
  void badInputIsOneLineNamingTheFlagOrVariableOnEveryCommand() {
    Map<String, String> bad = new java.util.LinkedHashMap<>();
    bad.put(
        "--nodes gpu[01-04;07]",
        "clusterrun: --nodes: 'gpu[01-04;07]' at position 10: unexpected ';'");
    bad.put("--nodes gpu[9-1]", "clusterrun: --nodes: 'gpu[9-1]': range 9-1 goes backwards");
    bad.put(
        "--nodes gpu[1-1000000]", "clusterrun: --nodes: 'gpu[1-1000000]': more than 100000 nodes");
    bad.put("--nodes gpu[1-2", "clusterrun: --nodes: 'gpu[1-2' at position 4: '[' is never closed");
    bad.put("--nodes conf/missing", "clusterrun: --nodes conf/missing: no such file");
    bad.put("--nodes a,b -x a,b", "clusterrun: --exclude a,b: leaves out every node");
    bad.put("--nodes a,b --node-count 3", "clusterrun: --node-count 3: only 2 nodes");
    for (String cmd :
        List.of(
            "check",
            "setup --data-path /d",
            "run",
            "plan",
            "hpl",
            "bench stream",
            "screen",
            "ps",
            "stop RUN")) {
      for (Map.Entry<String, String> e : bad.entrySet()) {
        List<String> a = new ArrayList<>(List.of(cmd.split(" ")));
        a.addAll(List.of(e.getKey().split(" ")));
        if (List.of("run", "plan").contains(cmd)) {
          a.addAll(List.of("--container-image=img.sqsh", "--", "hostname"));
        }
        Run r = CliTest.run(a.toArray(String[]::new));
        assertThat(r.code()).as(a + ": " + r.err()).isEqualTo(2);
        assertThat(r.err()).as(a.toString()).startsWith(e.getValue()).hasLineCount(1);
      }
    }
  }

  @Test
  void noNodesAndNoAllocationNamesTheSourcesTried() {
    Run r = CliTest.run("ps");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "clusterrun: --nodes: not given, and no scheduler allocation in the environment"
                + " (tried SLURM_JOB_NODELIST, SLURM_NODELIST, PBS_NODEFILE, LSB_DJOB_HOSTFILE,"
                + " LSB_MCPU_HOSTS); give --nodes HOSTFILE or a node list such as"
                + " 'node[01-16]'\n");
    Run t = CliTest.run(Map.of("HOME", "/h", "SLURM_TASKS_PER_NODE", "2(x"), "check");
    assertThat(t.code()).isEqualTo(2);
  }
}
