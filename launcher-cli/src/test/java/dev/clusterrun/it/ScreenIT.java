package dev.clusterrun.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code clusterrun screen} on the local cluster, as the job user on the head node1, in the
 * cluster's tiny image (which sees the host's /usr: mpicc, Open MPI), or with a real enroot in the
 * image build-image.sh made (its own mpicc and Open MPI), at the default tolerance (10%) and repeat
 * (3). Eight nodes are up; most tests screen the first three. A healthy cluster flags nothing in
 * three screens in a row, on three nodes and on eight; with node3's link limited by a token-bucket
 * qdisc on its eth0 (egress, 50 Mbit/s), the two pairs node3 is in are slow and node3 is flagged,
 * no other node and no link, {@code --write-hostfile} leaves out exactly node3 and {@code run
 * --nodes} of that file runs on the other two; with only what node2 sends to node3 limited (an htb
 * class filtered by destination), the link node2-node3 is named and no node; with node3's sshd in a
 * cgroup whose CPU quota is 10% of one CPU (every session it starts inherits it), node3's compute
 * is flagged, no other node. Each fault is flagged at first and again by the second look (the
 * suspects measured again, each slow pair alone); Ctrl-C during that second look ends the screen as
 * it ends a run (exit 130, no verdict).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScreenIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(8);

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
  static final ObjectMapper JSON = new ObjectMapper();

  static String launcher;
  static String shared;

  /** The first three nodes, and all eight. */
  static String hosts;

  static String hosts8;
  static String workspace;
  static String image;

  static LocalCluster c() {
    return CLUSTER.cluster();
  }

  @BeforeAll
  static void setUp() throws Exception {
    LocalCluster c = c();
    shared = c.sharedDir().toString();
    launcher = c.installClusterrun(Paths.get("target")).toString();
    workspace = shared + "/screen-ws-" + UUID.randomUUID().toString().substring(0, 8);
    hosts = shared + "/screen-hosts.txt";
    hosts8 = shared + "/screen-hosts8.txt";
    String all = c.hostfile(1);
    Files.writeString(Paths.get(hosts8), all, StandardCharsets.UTF_8);
    Files.writeString(
        Paths.get(hosts),
        String.join("\n", all.lines().limit(3).toList()) + "\n",
        StandardCharsets.UTF_8);
    if (LocalClusterExtension.realEnrootRequested()) {
      // A real enroot: the image build-image.sh made; screen compiles its program with its mpicc.
      image = shared + "/screen-image.sqsh";
      Runs.imageFileAt(c, image);
      Assumptions.assumeTrue(
          c.exec("node1", "unsquashfs", "-l", image).stdout().contains("/usr/bin/mpicc\n"),
          "ScreenIT needs mpicc in the image (build-image.sh puts libopenmpi-dev in it)");
    } else {
      // The cluster's registry holds it; its containers see the host's /usr (mpicc, Open MPI).
      image = c.tinyImage();
    }
    Result setup = clusterrun("setup", "--nodes", hosts8, "--data-path", shared + "/enroot-data");
    assertThat(setup.exitCode()).as("%s", setup).isZero();
  }

  static Result clusterrun(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launcher);
    cmd.addAll(List.of(args));
    return c().exec("node1", false, null, RUN_TIMEOUT, cmd);
  }

  static Result screen(String... more) {
    return screenOf(hosts, more);
  }

  /** clusterrun's words for a screen of {@code hostfile} in the test image and workspace. */
  static List<String> screenArgs(String hostfile, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "screen",
                "--nodes",
                hostfile,
                "--container-image",
                image,
                "--workspace",
                workspace));
    args.addAll(List.of(more));
    return args;
  }

  static Result screenOf(String hostfile, String... more) {
    long t0 = System.nanoTime();
    Result r = clusterrun(screenArgs(hostfile, more).toArray(String[]::new));
    System.err.printf(
        "ScreenIT: screen of %s %s took %.1f s%n%s%n%s%n",
        hostfile, String.join(" ", more), (System.nanoTime() - t0) / 1e9, r.stdout(), r.stderr());
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
    Result tc = c().cluster("limit", "node3", "50mbit");
    assertThat(tc.exitCode()).as("%s", tc).isZero();
    Result r;
    try {
      r = screen("--json", "--write-hostfile", good.toString(), "--junit", junit.toString());
    } finally {
      Result del = c().cluster("unlimit", "node3");
      assertThat(del.exitCode()).as("%s", del).isZero();
    }
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    JsonNode j = JSON.readTree(r.stdout());
    assertThat(j.get("flaggedNodes").toString()).isEqualTo("[\"node3\"]");
    assertThat(j.get("flaggedLinks").size()).isZero();
    assertThat(j.get("nodes").get(2).get("bandwidth").get("ok").asBoolean()).isFalse();
    // flagged first, node3's two pairs were measured again, each alone, and were slow again
    assertThat(subjects(j, "bandwidth")).contains("node2-node3", "node3-node1");
    // (a figure of another node flagged at first by a busy host is looked at again too)
    assertThat(r.stderr())
        .contains("a second look before reporting: ")
        .contains("node2-node3 alone")
        .contains("node3-node1 alone");
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
    // 10% of one CPU: with other builds on the machine each node gets a fifth of a CPU or less,
    // and a quota of 25% did not bind (node3 measured as fast as the others)
    Result throttle = c().cluster("throttle", "node3", "10");
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
    assertThat(subjects(j, "compute")).contains("node3");
  }

  /** The subjects the second look measured again for {@code metric}. */
  static List<String> subjects(JsonNode verdict, String metric) {
    List<String> out = new ArrayList<>();
    verdict
        .get("secondLook")
        .forEach(
            x -> {
              if (x.get("metric").asText().equals(metric)) {
                out.add(x.get("subject").asText());
              }
            });
    return out;
  }

  @Test
  @Order(4)
  void oneLinkLimited_theLinkIsNamed_noNode() throws Exception {
    Path junit = Paths.get(shared, "screen-junit-" + UUID.randomUUID() + ".xml");
    Result tc = c().cluster("limit", "node2", "50mbit", "--to", "node3");
    assertThat(tc.exitCode()).as("%s", tc).isZero();
    Result r;
    try {
      r = screen("--json", "--junit", junit.toString());
    } finally {
      Result del = c().cluster("unlimit", "node2");
      assertThat(del.exitCode()).as("%s", del).isZero();
    }
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    JsonNode j = JSON.readTree(r.stdout());
    assertThat(j.get("flaggedNodes").size()).as("%s", r).isZero();
    assertThat(j.get("flaggedLinks").toString()).isEqualTo("[[\"node2\",\"node3\"]]");
    JsonNode pair = j.get("pairs").get(1);
    assertThat(pair.get("a").asText() + "-" + pair.get("b").asText()).isEqualTo("node2-node3");
    assertThat(pair.get("blame").asText()).isEqualTo("link");
    assertThat(pair.get("bandwidth").get("ok").asBoolean()).isFalse();
    assertThat(subjects(j, "bandwidth")).contains("node2-node3");
    assertThat(Files.readString(junit))
        .contains("failures=\"1\"")
        .contains("name=\"link node2-node3\">");
  }

  @Test
  @Order(6)
  void referencesAndToleranceFlags_aFigureUnderItsReferenceIsFlaggedNamingIt() throws Exception {
    Result bad = screen("--tolerance", "10%,bw=15%");
    assertThat(bad.exitCode()).as("%s", bad).isEqualTo(2);
    assertThat(bad.stderr()).contains("--tolerance: 'bw=15%': 'bw' is not a metric");
    Path refs = Paths.get(shared, "screen-refs-" + UUID.randomUUID() + ".yaml");
    Files.writeString(
        refs,
        "clusters:\n  screen-hosts:\n    screen:\n      - nodes: 3\n        metrics:\n"
            + "          compute: {value: 1000, lower: -10%, unit: Gflop/s}\n",
        StandardCharsets.UTF_8);
    Result r = screen("--references", refs.toString(), "--tolerance", "50%,latency=90%");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    String where = "screen-hosts/screen nodes=3 at " + refs + ":6:11";
    assertThat(r.stdout())
        .contains("references: compute 1000 Gflop/s -10.0% (" + where + ")")
        .contains("tolerance 50.0% (latency 90.0%)")
        .contains("flagged: node node1 (compute ")
        // how far off its reference, whatever this machine's figure: e.g. -98.7%
        .containsPattern(
            java.util.regex.Pattern.quote(", reference 1000 Gflop/s (" + where + "), -")
                + "\\d+\\.\\d%\\)");
  }

  @Test
  @Order(7)
  void ctrlCDuringTheSecondLook_endsTheScreenAsARun_exit130NoVerdict() throws Exception {
    Path err = Paths.get(shared, "screen-int-" + UUID.randomUUID() + ".err");
    String pidFile = "/tmp/screen-int-it.pid";
    List<String> argv = new ArrayList<>(List.of(launcher));
    argv.addAll(screenArgs(hosts, "--repeat", "10"));
    Result tc = c().cluster("limit", "node3", "50mbit");
    assertThat(tc.exitCode()).as("%s", tc).isZero();
    Result r;
    try {
      String script =
          "echo $$ > "
              + pidFile
              + " && exec "
              + ShellQuote.join(argv)
              + " 2> "
              + ShellQuote.quote(err.toString());
      CompletableFuture<Result> running =
          CompletableFuture.supplyAsync(
              () -> c().exec("node1", false, null, RUN_TIMEOUT, List.of("sh", "-c", script)));
      long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
      while (!running.isDone()
          && System.nanoTime() < deadline
          && !(Files.exists(err)
              && Files.readString(err).contains("a second look before reporting"))) {
        Thread.sleep(100);
      }
      assertThat(running.isDone()).as("the screen ended before its second look").isFalse();
      String pid = c().exec("node1", "cat", pidFile).out().strip();
      Result k = c().exec("node1", true, "kill", "-INT", pid);
      assertThat(k.exitCode()).as("%s", k).isZero();
      r = running.get();
    } finally {
      Result del = c().cluster("unlimit", "node3");
      assertThat(del.exitCode()).as("%s", del).isZero();
    }
    String stderr = Files.readString(err);
    assertThat(r.exitCode()).as("%s%n%s", r, stderr).isEqualTo(130);
    assertThat(r.stdout()).doesNotContain("flagged").doesNotContain("NODE ");
    assertThat(stderr).doesNotContain("the first measurement stands");
  }

  @Test
  @Order(5)
  void aHealthyEightNodeClusterFlagsNothing_threeScreensInARow() throws Exception {
    for (int i = 1; i <= 3; i++) {
      Result r = screenOf(hosts8);
      assertThat(r.exitCode()).as("8 nodes, screen %d: %s", i, r).isZero();
      assertThat(r.stdout())
          .as("8 nodes, screen %d", i)
          .contains("node7-node8")
          .contains("node8-node1")
          .contains("nothing flagged on 8 nodes")
          .doesNotContain("✗");
      // the ring's even pairs, then its odd pairs: 8 pairs, every node in two
      assertThat(r.stdout().lines().filter(l -> l.matches("  node\\d-node\\d .*"))).hasSize(8);
    }
  }
}
