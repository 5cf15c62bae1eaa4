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
 * cluster's tiny image (which sees the host's /usr: mpicc, Open MPI): a healthy cluster flags
 * nothing; with node3's link limited by a token-bucket qdisc on its eth0 (egress, 50 Mbit/s), the
 * two pairs node3 is in are slow and node3 is flagged, no other node and no link, and {@code
 * --write-hostfile} leaves out exactly node3.
 *
 * <p>The tolerance is 50 %: on this shared 2-core machine the pairs run one round after another and
 * a healthy pair's figures move by more than 10 % between rounds; the limited link is ~99 % off.
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
                "screen",
                "--nodes",
                hosts,
                "--container-image",
                image,
                "--workspace",
                workspace,
                "--tolerance",
                "50%"));
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
  void aHealthyClusterFlagsNothing() {
    Result r = screen();
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stdout())
        .contains("node1-node2")
        .contains("node2-node3")
        .contains("node3-node1")
        .contains("nothing flagged on 3 nodes")
        .doesNotContain("✗");
    // compiled once: the workspace keeps one binary for the image
    assertThat(Paths.get(workspace, "screen", "bin").toFile().list()).hasSize(1);
  }

  @Test
  @Order(2)
  void oneNodesLinkLimited_thatNodeIsFlaggedAndLeftOutOfTheHostfile() throws Exception {
    Path good = Paths.get(shared, "screen-good-" + UUID.randomUUID() + ".txt");
    Result tc =
        c().exec(
                "node3", true, "tc", "qdisc", "add", "dev", "eth0", "root", "tbf", "rate", "50mbit",
                "burst", "32kbit", "latency", "50ms");
    assertThat(tc.exitCode()).as("%s", tc).isZero();
    try {
      Result r = screen("--json", "--write-hostfile", good.toString());
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      JsonNode j = JSON.readTree(r.stdout());
      assertThat(j.get("flaggedNodes").toString()).isEqualTo("[\"node3\"]");
      assertThat(j.get("flaggedLinks").size()).isZero();
      assertThat(r.stderr()).contains("wrote " + good + " without node3");
      String written = Files.readString(good);
      assertThat(written).contains("node1").contains("node2").doesNotContain("node3 slots");
      assertThat(written.lines().filter(l -> !l.startsWith("#")).count()).isEqualTo(2);
    } finally {
      Result del = c().exec("node3", true, "tc", "qdisc", "del", "dev", "eth0", "root");
      assertThat(del.exitCode()).as("%s", del).isZero();
    }
  }
}
