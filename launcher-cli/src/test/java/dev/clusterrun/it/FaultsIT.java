package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.RING;
import static dev.clusterrun.it.Runs.RUN_LINE;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * clusterrun under the faults of real clusters, on three nodes that all carry Docker's bridge
 * ({@code docker0} 172.17.0.1/16, the same address on every node): a real MPI program passes
 * because run keeps Open MPI to the network the nodes were reached on; and it does not without
 * that. Nothing here selects an interface for Open MPI but clusterrun: no {@code
 * ~/.openmpi/mca-params.conf}, no {@code OMPI_MCA_*} in the environment, no MCA in the job file.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD =
      new ClusterrunExtension(
          3, LocalCluster.Options.DEFAULT.withDockerBridge(), "faults-hosts", 1, "faults-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

  static List<String> imageFlags = List.of();

  @BeforeAll
  static void jobAndProgramThenSetup() {
    LocalCluster c = HEAD.cluster();
    ok(c.exec("node1", "mkdir", "-p", HEAD.shared() + "/examples"));
    // The job file without any MCA setting: only clusterrun may choose the interface.
    c.writeAsJobUser(
        HEAD.shared() + "/faults-ring.yaml",
        "name: faults-ring\n"
            + "container:\n"
            + "  image: "
            + c.tinyImage()
            + "\n"
            + "workspace:\n"
            + "  mount: /workspace\n"
            + "command: [/workspace/ring]\n");
    Runs.compileRing(c, HEAD.ws());
    imageFlags = Runs.givenImageFlags(c, HEAD.shared() + "/it-image.sqsh");
    HEAD.setup(HEAD.shared() + "/faults-enroot-data");
  }

  // ----------------------------------------------------------------------------------------------
  // Docker's bridge on every node

  @Test
  @Order(1)
  void checkWarnsThatDocker0HasTheSameAddressOnEveryNode() {
    assertThat(HEAD.cluster().dockerBridge()).contains("docker0 172.17.0.1/16");
    assertThat(HEAD.cluster().jobHome().resolve(".openmpi/mca-params.conf")).doesNotExist();
    Result r = HEAD.run(RUN_TIMEOUT, List.of(), List.of("check", "--nodes", HEAD.hosts()));
    ok(r);
    assertThat(r.stdout())
        .contains(
            "! network on node2: docker0 172.17.0.1 is also on node1, node3 (Docker's bridge)")
        .contains("clusterrun run keeps Open MPI to " + HEAD.cluster().subnet() + " by itself");
  }

  @Test
  @Order(2)
  void aRealMpiProgramPassesWithDocker0OnEveryNode() throws IOException {
    Result plan = HEAD.run(RUN_TIMEOUT, List.of(), job(List.of("plan")));
    ok(plan);
    assertThat(plan.stdout()).containsPattern("mpi.network +auto +default \\(auto: run finds");

    Result r = HEAD.run(RUN_TIMEOUT, List.of(), job(List.of("run")));
    ok(r);
    assertThat(r.stderr())
        .contains(
            "clusterrun: network: "
                + HEAD.cluster().subnet()
                + " (auto: the network the head reached every node on");
    List<String> hostsSeen = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      Matcher m = RING.matcher(l);
      if (m.matches()) {
        int rank = Integer.parseInt(m.group(1));
        assertThat(Integer.parseInt(m.group(4))).as(l).isEqualTo((rank + 2) % 3);
        assertThat(m.group(5)).as(l).isEqualTo("6");
        hostsSeen.add(m.group(2));
      }
    }
    assertThat(hostsSeen).containsExactlyInAnyOrder("node1", "node2", "node3");
    // The command it ran, kept in the run directory, carries the selection.
    JsonNode s = summary(r);
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    String planText = Files.readString(Paths.get(s.path("runDir").asText(), "plan.txt"));
    assertThat(planText)
        .contains("--mca btl_tcp_if_include " + HEAD.cluster().subnet())
        .contains("--mca oob_tcp_if_include " + HEAD.cluster().subnet());
  }

  @Test
  @Order(3)
  void withoutTheSelectionTheSameRunHangsOrFails() {
    // --network none: Open MPI's own choice, as a hand-typed mpirun makes it. The canary (a short
    // mpirun of the same shape) or the job hangs on docker0; SIGINT after 40 s stops it.
    List<String> args = job(List.of("run", "--network", "none"));
    List<String> cmd = new ArrayList<>(List.of("timeout", "-s", "INT", "40", HEAD.launcher()));
    cmd.addAll(args);
    Result r = shell(cmd);
    assertThat(r.exitCode()).as("%s", r).isNotZero();
    long ranks = r.stdout().lines().filter(l -> RING.matcher(l).matches()).count();
    assertThat(ranks).as("%s", r).isLessThan(3);
    assertThat(r.stderr()).contains("clusterrun: network: none");
  }

  // ----------------------------------------------------------------------------------------------
  // Many jobs at once

  @Test
  @Order(5)
  void fourJobsOfTwoUsersAtOnceNamedAndUnnamedAllPass() throws Exception {
    LocalCluster.JobUser two = HEAD.cluster().user2();
    String dataPath = HEAD.shared() + "/faults-enroot-data";
    // One data path for every user, as setup writes it: the site lets every user make containers
    // there (sticky, like /tmp).
    ok(HEAD.cluster().exec("node1", true, "chmod", "1777", dataPath));
    String ws2 = two.home() + "/faults-ws2";
    ok(HEAD.cluster().execAs(two, "node1", "mkdir", "-p", ws2));
    ok(HEAD.cluster().execAs(two, "node1", "cp", HEAD.ws() + "/ring", ws2 + "/ring"));
    // Two runs of the first user share one named container, made by whichever comes first while
    // the other waits; the second user runs one named and one unnamed container of its own.
    List<CompletableFuture<Result>> runs = new ArrayList<>();
    runs.add(
        CompletableFuture.supplyAsync(
            () -> asUser(null, HEAD.ws(), "--container-name", "faultsconc")));
    runs.add(
        CompletableFuture.supplyAsync(
            () -> asUser(null, HEAD.ws(), "--container-name", "faultsconc")));
    runs.add(
        CompletableFuture.supplyAsync(() -> asUser(two, ws2, "--container-name", "faultsconc2")));
    runs.add(CompletableFuture.supplyAsync(() -> asUser(two, ws2)));
    List<String> runIds = new ArrayList<>();
    for (CompletableFuture<Result> f : runs) {
      Result r = f.get(300, TimeUnit.SECONDS);
      ok(r);
      List<String> hostsSeen = new ArrayList<>();
      for (String l : r.stdout().split("\n")) {
        Matcher m = RING.matcher(l);
        if (m.matches()) {
          assertThat(m.group(5)).as(l).isEqualTo("6");
          hostsSeen.add(m.group(2));
        }
      }
      assertThat(hostsSeen).as("%s", r).containsExactlyInAnyOrder("node1", "node2", "node3");
      Matcher m = RUN_LINE.matcher(r.stderr());
      assertThat(m.find()).isTrue();
      runIds.add(m.group(1));
    }
    assertThat(runIds).doesNotHaveDuplicates();
    // The shared named container was made once: one run made it, the other used it.
    String a = runs.get(0).get().stderr();
    String b = runs.get(1).get().stderr();
    assertThat((a + b).split("created container faultsconc ", -1)).hasSize(2);
    // Nothing of any run is left on any node.
    for (String n : HEAD.cluster().nodes()) {
      for (String id : runIds) {
        assertThat(Runs.processesInNode(HEAD.cluster(), n, id, "/workspace/ring"))
            .as("%s on %s", id, n)
            .isEmpty();
      }
    }
  }

  /** {@code run faults-ring.yaml} as {@code user} (null: the first) with its own workspace. */
  static Result asUser(LocalCluster.JobUser user, String workspace, String... flags) {
    List<String> cmd =
        new ArrayList<>(
            List.of(HEAD.launcher(), "run", "faults-ring.yaml", "--nodes", HEAD.hosts()));
    cmd.addAll(List.of("--workspace", workspace));
    cmd.addAll(imageFlags);
    cmd.addAll(List.of(flags));
    if (user == null) {
      return shell(cmd);
    }
    return Runs.shownAs(HEAD.cluster(), user, HEAD.shared(), RUN_TIMEOUT, cmd);
  }

  // ----------------------------------------------------------------------------------------------
  // A node lost without a reset

  @Test
  @Order(4)
  void aNodeCutMidRunStopsTheJobNamingItWithinTheNodeTimeoutAndLeavesNothingOnTheOthers()
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(HEAD.launcher()));
    cmd.addAll(job(List.of("run", "--node-timeout", "10s", "--", "sleep", "987")));
    CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> shell(cmd));
    try {
      // Wait until the job runs on every node: one `sleep 987` in each node's network namespace.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline && !running.isDone()) {
        if (HEAD.cluster().nodes().stream()
            .allMatch(n -> !Runs.processesInNode(HEAD.cluster(), n, "", "sleep 987").isEmpty())) {
          break;
        }
        Thread.sleep(300);
      }
      assertThat(running.isDone())
          .as("the run ended early: %s", running.isDone() ? running.get() : "")
          .isFalse();
      for (String n : HEAD.cluster().nodes()) {
        assertThat(Runs.processesInNode(HEAD.cluster(), n, "", "sleep 987")).as(n).isNotEmpty();
      }
      long cut = System.nanoTime();
      HEAD.cluster().cut("node3");
      Result r = running.get(60, TimeUnit.SECONDS);
      double took = (System.nanoTime() - cut) / 1e9;
      System.err.printf("--- node3 cut; clusterrun ended %.1f s later%n", took);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(5);
      assertThat(took).as("seconds from the cut to the exit").isLessThanOrEqualTo(10 + 10);
      assertThat(r.stderr())
          .contains("node3 stopped answering for")
          .contains("(--node-timeout 10s): the job was stopped on the other nodes");
      Matcher line = RUN_LINE.matcher(r.stderr());
      assertThat(line.find()).isTrue();
      assertThat(line.group(2)).isEqualTo("node-lost");
      String runId = line.group(1);
      JsonNode s = summary(r);
      assertThat(s.path("outcome").asText()).isEqualTo("node-lost");
      assertThat(s.path("exitCode").asInt()).isEqualTo(5);
      assertThat(s.path("lostNodes").toString()).isEqualTo("[\"node3\"]");
      assertThat(s.path("message").asText()).contains("node3 stopped answering");
      // Nothing of the run on the nodes that answer: no orted, no rank, nothing with its run id.
      for (String n : List.of("node1", "node2")) {
        assertThat(Runs.processesInNode(HEAD.cluster(), n, runId, "sleep 987"))
            .as("left on %s", n)
            .isEmpty();
      }
    } finally {
      HEAD.cluster().uncut("node3");
      // What the lost node still runs is out of reach of the run; the test cleans it up (and, when
      // the run did not end, ends its job).
      for (String n : running.isDone() ? List.of("node3") : HEAD.cluster().nodes()) {
        for (String l : Runs.processesInNode(HEAD.cluster(), n, "", "sleep 987")) {
          HEAD.cluster().exec(n, true, "kill", "-KILL", l.split(" ")[0]);
        }
      }
      try {
        running.get(120, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        System.err.println("--- the run did not end after its job was killed");
      }
    }
  }

  // ----------------------------------------------------------------------------------------------

  /** {@code COMMAND faults-ring.yaml --nodes H --workspace WS [image] EXTRA}. */
  static List<String> job(List<String> commandAndFlags) {
    List<String> args = HEAD.onNodes(commandAndFlags.get(0), "faults-ring.yaml");
    args.addAll(imageFlags);
    args.addAll(commandAndFlags.subList(1, commandAndFlags.size()));
    return args;
  }

  static Result shell(List<String> cmd) {
    return Runs.shown(HEAD.cluster(), HEAD.shared(), RUN_TIMEOUT, List.of(), cmd);
  }
}
