package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.lines;
import static dev.clusterrun.it.Runs.summary;
import static dev.clusterrun.it.Runs.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One plan per run (issue 38), counted where the run leaves it: {@code summary.json}'s {@code
 * plans}, on a 3-node local cluster, clusterrun run as the job user on node1. Each run is a {@code
 * hostname} job that must succeed, its plans counted: three nodes with the network found
 * automatically, in a named container the run makes and then in the same container used as it is
 * (its start on the head begun during the checks, from the head's facts alone, while every node's
 * facts choose the network); {@code --network} given; an image file started directly (unnamed), its
 * Open MPI asked by the first run and remembered, then begun early; one node; {@code --mpi-daemon
 * orted} given; the per-node launcher. Open MPI 5 ({@code prted}) cannot run here (the nodes' Open
 * MPI is 4): {@code RunPlansTest} counts its plans through the real planner.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OnePlanIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "op-hosts", 1, "op-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

  /** The named container the runs make, then use as it is. */
  static final String BOX = "op-box";

  static List<String> image;
  static String imageFile;

  @BeforeAll
  static void setupAndImage() {
    LocalCluster c = HEAD.cluster();
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = Runs.orTinyImage(c, Runs.requiredImageFlags(c, HEAD.shared() + "/op-image.sqsh"));
    imageFile = HEAD.shared() + "/op-direct.sqsh";
    Runs.imageFileAt(c, imageFile);
  }

  @AfterAll
  static void removeBox() {
    if (HEAD.isUp()) {
      HEAD.cluster().exec("node1", "enroot", "remove", "--force", BOX);
    }
  }

  /** {@code clusterrun run --nodes NODES --workspace WS ARGS -- hostname}, which must succeed. */
  static Result hostname(String nodes, String... args) {
    List<String> a = new ArrayList<>(List.of("run", "--nodes", nodes, "--workspace", HEAD.ws()));
    a.addAll(List.of(args));
    a.addAll(List.of("--", "hostname"));
    return ok(HEAD.run(RUN_TIMEOUT, List.of(), a));
  }

  /** As {@link #hostname} on every node. */
  static Result onEveryNode(String... args) {
    return hostname(HEAD.hosts(), args);
  }

  /** {@code image}'s flags, then {@code more}. */
  static String[] withImage(String... more) {
    List<String> a = new ArrayList<>(image);
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  /** Asserts the run ran its ranks on {@code nodes} and made exactly one plan; its summary. */
  static JsonNode onePlan(Result r, String... nodes) {
    List<String> ran = new ArrayList<>(lines(r));
    Collections.sort(ran);
    assertThat(ran).containsExactly(nodes);
    JsonNode s = summary(r);
    System.err.println("--- plans the run made: " + s.path("plans"));
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    assertThat(s.path("plans").isInt()).as("summary.json's plans: %s", s).isTrue();
    assertThat(s.path("plans").asInt()).as("plans the run made").isEqualTo(1);
    return s;
  }

  /** Whether the head's container began during the checks ({@code summary.json}'s prepare). */
  static boolean begunEarly(JsonNode s) {
    return texts(s.path("prepare")).stream().anyMatch(a -> a.contains("began during the checks"));
  }

  @Test
  @Order(1)
  void threeNodesWithTheNetworkFoundAutomaticallyInTheContainerTheRunMakesMakeOnePlan() {
    // The container made by this run (which remembers its Open MPI): no early start.
    Result made = onEveryNode(withImage("--container-name=" + BOX));
    assertThat(made.stderr()).contains("clusterrun: network: " + HEAD.cluster().subnet());
    assertThat(begunEarly(onePlan(made, "node1", "node2", "node3"))).isFalse();
  }

  @Test
  @Order(2)
  void threeNodesWithTheNetworkFoundAutomaticallyBegunEarlyMakeOnePlan() {
    // Used as it is: the head's start begins at its first answer, planned from its facts alone;
    // every node's facts then choose the network. Still the one plan.
    Result early = onEveryNode("--container-name=" + BOX);
    assertThat(early.stderr()).contains("clusterrun: network: " + HEAD.cluster().subnet());
    assertThat(begunEarly(onePlan(early, "node1", "node2", "node3"))).isTrue();
  }

  @Test
  @Order(3)
  void aNetworkGivenMakesOnePlan() {
    Result r = onEveryNode("--container-name=" + BOX, "--network", HEAD.cluster().subnet());
    assertThat(begunEarly(onePlan(r, "node1", "node2", "node3"))).isTrue();
  }

  @Test
  @Order(4)
  void anImageFileStartedDirectlyMakesOnePlan() {
    // The first run of the file asks its Open MPI (no early start), the second begins early.
    onePlan(onEveryNode("--container-image", imageFile), "node1", "node2", "node3");
    Result again = onEveryNode("--container-image", imageFile);
    assertThat(begunEarly(onePlan(again, "node1", "node2", "node3"))).isTrue();
  }

  @Test
  @Order(5)
  void oneNodeMakesOnePlan() {
    onePlan(hostname("node1", "--container-name=" + BOX), "node1");
  }

  @Test
  @Order(6)
  void theDaemonGivenMakesOnePlan() {
    onePlan(
        onEveryNode("--container-name=" + BOX, "--mpi-daemon", "orted"), "node1", "node2", "node3");
  }

  @Test
  @Order(7)
  void thePerNodeLauncherMakesOnePlan() {
    onePlan(
        onEveryNode("--container-name=" + BOX, "--launcher=per-node", "--no-label"),
        "node1",
        "node2",
        "node3");
  }
}
