package dev.clusterrun.core.launch.proof;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BashRun;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.launch.mpirun.CanaryRun;
import dev.clusterrun.core.launch.mpirun.DaemonDetection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanaryTest {
  static final String RUN = "20261121-061500-job-ab12";
  static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path tmp;

  private static String run(List<String> cmd, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove(dev.clusterrun.core.enroot.LaunchAgent.RUN_ID_VAR);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    return out;
  }

  @Test
  void theCanaryCommandReallyPrintsHostnameNamespaceRunIdAndToken() throws Exception {
    Path token = tmp.resolve("it's a dir").resolve(Canary.TOKEN_FILE);
    Files.createDirectories(token.getParent());
    Files.writeString(token, TOKEN + "\n");
    List<Canary.Rank> ranks =
        Canary.parse(
            "noise\n"
                + run(
                    Canary.command(token.toString()),
                    Map.of(dev.clusterrun.core.enroot.LaunchAgent.RUN_ID_VAR, RUN)));
    assertThat(ranks).hasSize(1);
    Canary.Rank r = ranks.get(0);
    assertThat(r.hostname()).isNotBlank();
    assertThat(r.mountNamespace()).startsWith("mnt:[");
    assertThat(r.runId()).isEqualTo(RUN);
    assertThat(r.token()).isEqualTo(TOKEN);

    // Another agent's rank: no run id in its environment, no run directory mounted.
    Canary.Rank foreign =
        Canary.parse(run(Canary.command(tmp.resolve("missing/canary.token").toString()), Map.of()))
            .get(0);
    assertThat(foreign.runId()).isNull();
    assertThat(foreign.token()).isNull();
  }

  @Test
  void theCommandAndTheWordsSentWithItAreTheGoldenOnes() {
    List<String> cmd = Canary.command("/ws/runs/" + RUN + "/" + Canary.TOKEN_FILE);
    assertThat(cmd.subList(0, 2)).containsExactly("sh", "-c");
    assertThat(cmd).hasSize(3);
    GoldenText.assertMatches(cmd.get(2), getClass(), "golden/canary.expected.txt");
  }

  /**
   * With bash: a token path hostile to the shell (quotes, command substitutions, a backslash, a
   * glob, a newline) is the file read, byte for byte; nothing in it runs.
   */
  @Test
  void withBashAHostileTokenPathIsTheFileRead() throws Exception {
    Path mark = tmp.resolve("pwned");
    Path token = Files.createDirectories(tmp.resolve(BashRun.hostile(mark))).resolve("t");
    Files.writeString(token, TOKEN + "\n");
    List<String> cmd = new java.util.ArrayList<>(Canary.command(token.toString()));
    cmd.set(0, "bash");
    List<Canary.Rank> ranks =
        Canary.parse(run(cmd, Map.of(dev.clusterrun.core.enroot.LaunchAgent.RUN_ID_VAR, RUN)));
    assertThat(ranks).singleElement().satisfies(r -> assertThat(r.token()).isEqualTo(TOKEN));
    assertThat(ranks.get(0).runId()).isEqualTo(RUN);
    assertThat(mark).doesNotExist();
  }

  private static Map<String, Canary.Expected> threeNodes(Integer e1, Integer e2, Integer e3) {
    Map<String, Canary.Expected> m = new LinkedHashMap<>();
    m.put("node1", new Canary.Expected("node1", "mnt:[1]", e1, false));
    m.put("node2", new Canary.Expected("node2", "mnt:[2]", e2, true));
    m.put("node3", new Canary.Expected("node3", "mnt:[3]", e3, true));
    return m;
  }

  private static String rank(String host, String ns) {
    return "clusterrun-canary " + host + " " + ns + " " + RUN + " " + TOKEN;
  }

  @Test
  void aRankInTheNodesOwnNamespaceRanOutsideTheContainer() {
    String out =
        String.join(
            "\n",
            rank("node1", "mnt:[101]"),
            rank("node1", "mnt:[101]"),
            rank("node2", "mnt:[2]"),
            "[1,3]<stdout>:" + rank("node2", "mnt:[202]"));
    Canary.Verdict r = Canary.judge(Canary.parse(out), threeNodes(2, 2, 2), RUN, TOKEN, 6, 0);
    assertThat(r.ok()).isFalse();
    assertThat(r.missing()).containsExactly("node3");
    assertThat(r.nodes())
        .extracting(Canary.NodeVerdict::node)
        .containsExactly("node1", "node2", "node3");
    assertThat(r.nodes().get(0).ok()).isTrue();
    assertThat(r.nodes().get(1).outside()).isEqualTo(1);
    assertThat(CanaryRun.describe(r))
        .contains("node2: 1 of 2 ranks ran OUTSIDE the container")
        .contains("node3: no rank answered (2 expected by the mapping)");
  }

  @Test
  void allInsideWithThisRunsAgentAndEveryExpectedRankAnsweringPasses() {
    String out = rank("node1", "mnt:[9]") + "\n" + rank("node2", "mnt:[8]") + "\n";
    Canary.Verdict r = Canary.judge(Canary.parse(out), threeNodes(1, 1, 0), RUN, TOKEN, 2, 0);
    assertThat(r.ok()).as(CanaryRun.describe(r)).isTrue();
    assertThat(r.missing()).isEmpty();
    assertThat(CanaryRun.verdictLine(r.nodes().get(2), 2))
        .isEqualTo("node3: no rank placed here (2 ranks in all)");
    assertThat(CanaryRun.verdictLine(r.nodes().get(0), 2))
        .isEqualTo("node1: 1/1 ranks inside the container");
    assertThat(Canary.judge(List.of(), threeNodes(1, 1, 0), RUN, TOKEN, 2, 0).ok()).isFalse();
  }

  @Test
  void ranksInAContainerWithoutThisRunsIdOrTokenCameFromAnotherLaunchAgent() {
    // What the seed's leftover hook does: the remote daemons start in the same container, but
    // through its own agent, without the job's mounts and without the run id.
    String out =
        String.join(
            "\n",
            "clusterrun-canary node1 mnt:[11] - " + TOKEN,
            "clusterrun-canary node2 mnt:[22] - -",
            "clusterrun-canary node3 mnt:[33] other-run " + TOKEN);
    Canary.Verdict r = Canary.judge(Canary.parse(out), threeNodes(1, 1, 1), RUN, TOKEN, 3, 0);
    assertThat(r.ok()).isFalse();
    Canary.NodeVerdict two = r.nodes().get(1);
    assertThat(two.foreign()).isEqualTo(1);
    assertThat(two.inside()).isZero();
    assertThat(two.outside()).isZero();
    assertThat(CanaryRun.describe(r))
        .contains(
            "node2: 1 of 1 ranks ran in a container without this run's launch agent"
                + " (CLUSTERRUN_RUN_ID unset; the run directory not mounted): another hook or"
                + " setting replaces clusterrun's agent")
        .contains(
            "node3: 1 of 1 ranks ran in a container without this run's launch agent"
                + " (CLUSTERRUN_RUN_ID=other-run, another run's)")
        .doesNotContain("node1");
    assertThat(CanaryRun.verdictLine(two, 3))
        .isEqualTo(
            "node2: 0/1 ranks inside the container; 1 without this run's launch agent"
                + " (CLUSTERRUN_RUN_ID unset; the run directory not mounted)");
  }

  @Test
  void nodesThatGetNoRankAreNotMissingButEveryPlacedRankMustAnswer() {
    // 3 nodes x 2 slots, np 4: node1 2, node2 2, node3 none.
    Map<String, Integer> placed =
        new Canary.Placement(List.of("node1", "node2", "node3"), List.of(2, 2, 2), 4, null, null)
            .placement("node1");
    assertThat(placed)
        .containsExactly(Map.entry("node1", 2), Map.entry("node2", 2), Map.entry("node3", 0));
    String out =
        String.join(
            "\n",
            rank("node1", "mnt:[11]"),
            rank("node1", "mnt:[11]"),
            rank("node2", "mnt:[22]"),
            rank("node2", "mnt:[22]"));
    Map<String, Canary.Expected> e = threeNodes(2, 2, 0);
    assertThat(Canary.judge(Canary.parse(out), e, RUN, TOKEN, 4, 0).ok()).isTrue();
    // One rank of node2 never answered: node2 is one short even though it answered.
    Canary.Verdict short1 =
        Canary.judge(Canary.parse(out.substring(0, out.lastIndexOf('\n'))), e, RUN, TOKEN, 4, 0);
    assertThat(short1.ok()).isFalse();
    assertThat(CanaryRun.describe(short1)).contains("node2: 1 ranks answered, 2 expected");
  }

  @Test
  void theMappingIsOpenMpisHeadFirstThenHostfileOrderBySlotOrPerNode() {
    Canary.Placement bySlot =
        new Canary.Placement(List.of("a", "b", "c"), List.of(2, 3, 2), 4, null, null);
    assertThat(bySlot.placement("a"))
        .containsExactly(Map.entry("a", 2), Map.entry("b", 2), Map.entry("c", 0));
    assertThat(bySlot.placement("c"))
        .as("mpirun's own node comes first")
        .containsExactly(Map.entry("a", 2), Map.entry("b", 0), Map.entry("c", 2));
    assertThat(bySlot.placement("login"))
        .as("a head outside the hostfile gets no rank")
        .containsExactly(Map.entry("a", 2), Map.entry("b", 2), Map.entry("c", 0));
    assertThat(
            new Canary.Placement(List.of("a", "b", "c"), List.of(2, 2, 2), 1, null, null)
                .placement("a"))
        .containsExactly(Map.entry("a", 1), Map.entry("b", 0), Map.entry("c", 0));
    assertThat(
            new Canary.Placement(List.of("a", "b", "c"), List.of(8, 8, 8), 5, 2, null)
                .placement("a"))
        .containsExactly(Map.entry("a", 2), Map.entry("b", 2), Map.entry("c", 1));
    assertThat(new Canary.Placement(List.of("a"), List.of(2), 2, null, "x").placement("a"))
        .isEmpty();
  }

  @Test
  void mappingOptionsOfTheJobMakeThePlacementUnknownAndOnlyTheTotalCounts() {
    assertThat(
            Canary.Placement.unpredictable(
                List.of("--bind-to", "core"), Map.of("btl", "tcp"), 4, 4))
        .isNull();
    assertThat(Canary.Placement.unpredictable(List.of("--map-by", "node"), Map.of(), 1, 4))
        .contains("--map-by");
    assertThat(Canary.Placement.unpredictable(List.of("--host=a,b"), Map.of(), 1, 4))
        .contains("--host=a,b");
    assertThat(
            Canary.Placement.unpredictable(
                List.of(), Map.of("rmaps_base_mapping_policy", "node"), 1, 4))
        .contains("rmaps_base_mapping_policy");
    assertThat(Canary.Placement.unpredictable(List.of("--oversubscribe"), Map.of(), 9, 8))
        .isEqualTo("9 ranks on 8 slots (oversubscribed)");
    // Unknown placement: any node may have ranks, but all np must answer, each one good.
    String out = rank("node2", "mnt:[22]") + "\n" + rank("node3", "mnt:[33]");
    Map<String, Canary.Expected> e = threeNodes(null, null, null);
    assertThat(Canary.judge(Canary.parse(out), e, RUN, TOKEN, 2, 0).ok()).isTrue();
    Canary.Verdict r = Canary.judge(Canary.parse(out), e, RUN, TOKEN, 3, 0);
    assertThat(r.ok()).isFalse();
    assertThat(CanaryRun.describe(r)).isEqualTo("canary failed: 2 of 3 ranks answered");
  }

  @Test
  void openMpiVersionIsRead() {
    assertThat(DaemonDetection.openMpiVersion("mpirun (Open MPI) 4.1.4\n\nReport bugs"))
        .isEqualTo("4.1.4");
    assertThat(DaemonDetection.openMpiVersion("mpirun (Open MPI) 5.0.3")).isEqualTo("5.0.3");
    assertThat(DaemonDetection.openMpiVersion("bash: mpirun: command not found")).isNull();
  }
}
