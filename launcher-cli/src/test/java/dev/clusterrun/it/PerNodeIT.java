package dev.clusterrun.it;

import static dev.clusterrun.it.ClusterrunExtension.RUN_TIMEOUT;
import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.runLine;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code clusterrun run --launcher=per-node} end to end on a 3-node local cluster, run as the job
 * user on node1 (the head, first in the hostfile): a real rendezvous program
 * (examples/per-node/rendezvous.py, Python's standard library) in which every node meets the rank-0
 * node at MASTER_ADDR:MASTER_PORT; a node that fails stops the others; Ctrl-C leaves nothing
 * behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerNodeIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "hosts", 2, "ws");

  static String app;
  static String image;

  @BeforeAll
  static void setupImageAndProgram() {
    LocalCluster c = HEAD.cluster();
    app = HEAD.shared() + "/pn-app";
    ok(c.exec("node1", "mkdir", "-p", app));
    c.writeAsJobUser(app + "/rendezvous.py", Runs.repoFile("examples/per-node/rendezvous.py"));
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = app + "/base.sqsh";
    Runs.imageFileAt(c, image);
  }

  @Test
  @Order(1)
  void everyNodeMeetsRankZeroAtTheRendezvousAndEveryLineIsLabelled() throws IOException {
    Result r =
        ok(
            run(
                List.of("PN_MARKER=from-the-head"),
                List.of(
                    "--container-mounts",
                    app + ":/app",
                    "--container-workdir",
                    "/app",
                    "--container-env",
                    "PN_MARKER",
                    "--container-writable",
                    "--",
                    "python3",
                    "rendezvous.py")));
    // The rank-0 node gathered every rank once, from three distinct hosts.
    assertThat(r.stdout())
        .contains("node1: gathered 3 ranks: 0=node1 1=node2 2=node3\n")
        .contains("node2: rank 1 on node2 met rank 0 at node1:")
        .contains("node3: rank 2 on node3 met rank 0 at node1:");
    for (String node : HEAD.cluster().nodes()) {
      assertThat(r.stdout()).contains(node + ": marker=from-the-head\n");
    }
    // Every line of output names its node.
    for (String line : r.stdout().split("\n")) {
      assertThat(line).matches("node[123]: .*");
    }
    JsonNode s = summary(r);
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    assertThat(s.path("leftovers").toString()).doesNotContain("\"pid\"");
    Path runDir = Paths.get(s.path("runDir").asText());
    // Kept per node, without labels.
    assertThat(Files.readString(runDir.resolve("node2.stdout.log")))
        .startsWith("rank 1 on node2 met rank 0 at node1:");
    assertThat(Files.readString(runDir.resolve("node1.stdout.log"))).startsWith("gathered 3");
    // The plan kept in the run directory has the picked port in every node's start.
    Matcher port = Pattern.compile("met rank 0 at node1:(\\d+)").matcher(r.stdout());
    assertThat(port.find()).isTrue();
    String plan = Files.readString(runDir.resolve("plan.txt"));
    assertThat(plan)
        .contains("# rendezvous: node1:" + port.group(1) + " ")
        .contains("--env PET_MASTER_PORT=" + port.group(1) + " ")
        .contains("--env PET_NODE_RANK=2 ");
  }

  @Test
  @Order(2)
  void aNodeThatExits3MakesClusterrunExit3NamingItAndStopsTheOthers() {
    long t = System.nanoTime();
    Result r =
        run(
            List.of(),
            List.of(
                "--no-label",
                "--",
                "sh",
                "-c",
                "if [ \"$NODE_RANK\" = 1 ]; then sleep 2; echo failing; exit 3; fi; exec sleep 654"));
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t)).isLessThan(120);
    assertThat(r.stdout()).isEqualTo("failing\n");
    assertThat(r.stderr())
        .contains("clusterrun: node2: exited 3; stopping the others")
        .contains("node2 failed first (exit 3); then node1 (stopped), node3 (stopped)");
    String runId = runLine(r).group(1);
    assertThat(runLine(r).group(2)).isEqualTo("failed");
    for (String node : HEAD.cluster().nodes()) {
      assertThat(Runs.processes(HEAD.cluster(), node, runId, "sleep 654")).as(node).isEmpty();
    }
  }

  @Test
  @Order(3)
  void keepGoingLetsTheOtherNodesFinish() {
    Result r =
        run(
            List.of(),
            List.of(
                "--keep-going",
                "--",
                "sh",
                "-c",
                "if [ \"$NODE_RANK\" = 2 ]; then exit 5; fi; sleep 3; echo finished"));
    assertThat(r.exitCode()).as("%s", r).isEqualTo(5);
    assertThat(r.stdout()).contains("node1: finished\n").contains("node2: finished\n");
    assertThat(r.stderr()).contains("node3: exited 5; the other nodes go on (--keep-going)");
  }

  @Test
  @Order(4)
  void ctrlCStopsEveryNodeAndLeavesNothingBehind() throws Exception {
    Runs.interruptedOnceRunning(
        HEAD.cluster(), HEAD.shared(), HEAD.command(args(List.of("--", "sleep", "987"))));
  }

  @Test
  @Order(4)
  void clusterrunKilledBySigkillLeavesNoProcessOfItsRunOnAnyNode10sLater() throws Exception {
    Runs.killedLeavesNothingBehind(HEAD, HEAD.command(args(List.of("--", "sleep", "120"))));
  }

  @Test
  @Order(5)
  void aNamedWritableRemappedContainerOnEveryNodeIsSavedWithWhatTheFirstNodeWrote()
      throws IOException {
    String saved = app + "/saved.sqsh";
    Files.deleteIfExists(Paths.get(saved));
    Result r =
        ok(
            run(
                List.of(),
                List.of(
                    "--container-name=pn-named",
                    "--container-remap-root",
                    "--no-container-entrypoint",
                    "--container-writable",
                    "--container-save=" + saved,
                    "--",
                    "sh",
                    "-c",
                    "hostname > /written-by-$NODE_RANK && echo uid=$(id -u)")));
    for (String node : HEAD.cluster().nodes()) {
      assertThat(r.stdout()).contains(node + ": uid=0\n");
    }
    // Saved on the head after the job, with what the first node wrote into the named container:
    // the other nodes start its snapshot, each on an overlay of its own that ends with the run
    // (no node waits on the container's one rootfs lock: docs/scale.md).
    String listing = ok(HEAD.cluster().exec("node1", "unsquashfs", "-l", saved)).out();
    assertThat(listing).contains("/written-by-0");
  }

  // ----------------------------------------------------------------------------------------------

  /** The arguments of {@code run --launcher=per-node} for this cluster, then {@code extra}. */
  static List<String> args(List<String> extra) {
    List<String> a = HEAD.onNodes("run", "--launcher=per-node");
    a.addAll(List.of("--container-image", image));
    a.addAll(extra);
    return a;
  }

  /** Runs the launcher as the job user on node1 from the shared dir, with {@code env} added. */
  static Result run(List<String> env, List<String> extra) {
    return HEAD.run(RUN_TIMEOUT, env, args(extra));
  }
}
