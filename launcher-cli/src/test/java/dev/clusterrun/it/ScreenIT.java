package dev.clusterrun.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.it.LocalCluster.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code clusterrun screen} on three local nodes, as the job user on the head node1, in the
 * cluster's tiny image (which sees the host's /usr: mpicc, Open MPI), at the default tolerance
 * (10%) and repeat (3): a healthy cluster flags nothing in three screens in a row; with node3's
 * link limited by a token-bucket qdisc on its eth0 (egress, 50 Mbit/s), the two pairs node3 is in
 * are slow and node3 is flagged, no other node and no link, {@code --write-hostfile} leaves out
 * exactly node3 and {@code run --nodes} of that file runs on the other two; with node3's sshd in a
 * cgroup whose CPU quota is 25% of one CPU (every session it starts inherits it), node3's compute
 * is flagged, no other node.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScreenIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(3);

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
  static final ObjectMapper JSON = new ObjectMapper();

  static String launcher;
  static String shared;
  static String hosts;
  static String workspace;
  static String image;

  static LocalCluster c() {
    return CLUSTER.cluster();
  }

  @BeforeAll
  static void setUp() throws Exception {
    Assumptions.assumeFalse(
        LocalClusterExtension.realEnrootRequested(),
        "ScreenIT needs an image with mpicc; with a real enroot the test image has none");
    LocalCluster c = c();
    shared = c.sharedDir().toString();
    launcher = c.installClusterrun(Paths.get("target")).toString();
    workspace = shared + "/screen-ws-" + UUID.randomUUID().toString().substring(0, 8);
    hosts = shared + "/screen-hosts.txt";
    Files.writeString(Paths.get(hosts), c.hostfile(1), StandardCharsets.UTF_8);
    image = c.tinyImage();
    Result setup = clusterrun("setup", "--nodes", hosts, "--data-path", shared + "/enroot-data");
    assertThat(setup.exitCode()).as("%s", setup).isZero();
  }

  static Result clusterrun(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher);
    cmd.addAll(List.of(args));
    return c().exec("node1", false, null, RUN_TIMEOUT, cmd);
  }

  static Result screen(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "screen", "--nodes", hosts, "--container-image", image, "--workspace", workspace));
    args.addAll(List.of(more));
    long t0 = System.nanoTime();
    Result r = clusterrun(args.toArray(String[]::new));
    System.err.printf(
        "ScreenIT: screen %s took %.1f s%n%s%n%s%n",
        String.join(" ", more), (System.nanoTime() - t0) / 1e9, r.stdout(), r.stderr());
    return r;
  }

  @Test
  @Order(1)
  void aHealthyClusterFlagsNothing_threeScreensInARow() throws Exception {
    Path junit = Paths.get(shared, "screen-junit-" + UUID.randomUUID() + ".xml");
    for (int i = 1; i <= 3; i++) {
      Result r = i == 1 ? screen("--junit", junit.toString()) : screen();
      assertThat(r.exitCode()).as("screen %d: %s", i, r).isZero();
      assertThat(r.stdout())
          .as("screen %d", i)
          .contains("node1-node2")
          .contains("node2-node3")
          .contains("node3-node1")
          .contains("COMPUTE (Gflop/s)")
          .contains("MEMORY (MB/s)")
          .contains("nothing flagged on 3 nodes")
          .doesNotContain("✗");
      assertThat(r.stderr()).contains("appended to " + workspace + "/results.jsonl");
    }
    // compiled once: the workspace keeps one binary for the image
    assertThat(Paths.get(workspace, "screen", "bin").toFile().list()).hasSize(1);
    String x = Files.readString(junit);
    assertThat(x)
        .contains("tests=\"3\" failures=\"0\" errors=\"0\"")
        .contains("name=\"node node3\"");
    // each screen is a record of the results log, with every node's figures
    List<String> log = Files.readAllLines(Paths.get(workspace, "results.jsonl"));
    assertThat(log).hasSize(3);
    JsonNode rec = JSON.readTree(log.get(2));
    assertThat(rec.get("preset").asText()).isEqualTo("screen");
    assertThat(rec.get("metrics").has("node3/bandwidth_MBps")).isTrue();
    assertThat(rec.get("metrics").has("node2/dgemm_Gflops")).isTrue();
    assertThat(rec.get("metrics").get("flagged_nodes").asDouble()).isZero();
  }

  @Test
  @Order(2)
  void oneNodesLinkLimited_thatNodeIsFlaggedAndLeftOutOfTheHostfile() throws Exception {
    Path good = Paths.get(shared, "screen-good-" + UUID.randomUUID() + ".txt");
    Path junit = Paths.get(shared, "screen-junit-" + UUID.randomUUID() + ".xml");
    Result tc =
        c().exec(
                "node3", true, "tc", "qdisc", "add", "dev", "eth0", "root", "tbf", "rate", "50mbit",
                "burst", "32kbit", "latency", "50ms");
    assertThat(tc.exitCode()).as("%s", tc).isZero();
    Result r;
    try {
      r = screen("--json", "--write-hostfile", good.toString(), "--junit", junit.toString());
    } finally {
      Result del = c().exec("node3", true, "tc", "qdisc", "del", "dev", "eth0", "root");
      assertThat(del.exitCode()).as("%s", del).isZero();
    }
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    JsonNode j = JSON.readTree(r.stdout());
    assertThat(j.get("flaggedNodes").toString()).isEqualTo("[\"node3\"]");
    assertThat(j.get("flaggedLinks").size()).isZero();
    assertThat(j.get("nodes").get(2).get("bandwidth").get("ok").asBoolean()).isFalse();
    assertThat(r.stderr()).contains("wrote " + good + " without node3");
    String written = Files.readString(good);
    assertThat(written).contains("node1").contains("node2").doesNotContain("node3 slots");
    assertThat(written.lines().filter(l -> !l.startsWith("#")).count()).isEqualTo(2);
    assertThat(Files.readString(junit))
        .contains("failures=\"1\"")
        .contains("name=\"node node3\">")
        .contains("<failure message=\"bandwidth ");
    // the written hostfile is ready for the big run
    Result run =
        clusterrun(
            "run",
            "--nodes",
            good.toString(),
            "--container-image",
            image,
            "--workspace",
            workspace,
            "--",
            "hostname");
    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.stdout()).contains("node1").contains("node2").doesNotContain("node3");
  }

  @Test
  @Order(3)
  void oneNodesCpuLimited_thatNodesComputeIsFlagged_noOther() throws Exception {
    Result throttle = c().cluster("throttle", "node3", "25");
    assertThat(throttle.exitCode()).as("%s", throttle).isZero();
    Result r;
    try {
      r = screen("--json");
    } finally {
      Result un = c().cluster("unthrottle", "node3");
      assertThat(un.exitCode()).as("%s", un).isZero();
    }
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    JsonNode j = JSON.readTree(r.stdout());
    assertThat(j.get("flaggedNodes").toString()).isEqualTo("[\"node3\"]");
    assertThat(j.get("nodes").get(2).get("compute").get("ok").asBoolean()).isFalse();
    assertThat(j.get("nodes").get(2).get("compute").get("deviation").asDouble()).isLessThan(-0.2);
  }
}
