package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.lines;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every other node's container begun during the checks and joined by the run's daemon there ({@code
 * enroot exec}, issue 36), on a 3-node local cluster, clusterrun run as the job user on node1 with
 * a named container used as it is: the daemons say they joined, nothing of the held containers
 * outlives the run (ended in order, or with clusterrun killed), and a container that changed after
 * its start began (a writable run's snapshot taken again) is started afresh, so every node sees
 * what the last run wrote.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WarmStartIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "ws-hosts", 1, "ws-ws");

  static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

  static final String BOX = "ws-box";

  static final String JOINED = "(2 of 2 joined it where it was begun during the checks)";

  @BeforeAll
  static void setupAndTheContainer() {
    LocalCluster c = HEAD.cluster();
    HEAD.setup(HEAD.shared() + "/enroot-data");
    // Hooks of a second on every node, as a GPU node's: the head's own start then takes long
    // enough for the other nodes' to be begun during the checks (WarmStart.SLOW_START).
    ok(c.cluster("slow-hook", "all", "1"));
    List<String> image =
        Runs.orTinyImage(c, Runs.requiredImageFlags(c, HEAD.shared() + "/ws-image.sqsh"));
    // Made by a first run (which remembers its Open MPI), so later runs use it as it is.
    List<String> a = new ArrayList<>(HEAD.onNodes("run"));
    a.addAll(image);
    a.addAll(List.of("--container-name=" + BOX, "--", "hostname"));
    ok(HEAD.run(RUN_TIMEOUT, List.of(), a));
    // Used as it is, the head's start begins during the checks and the run remembers how long it
    // took to be up (.clusterrun/start-seconds): the next runs begin the other nodes' at once.
    ok(run("--", "true"));
  }

  @AfterAll
  static void removeBox() {
    if (HEAD.isUp()) {
      HEAD.cluster().exec("node1", "enroot", "remove", "--force", BOX);
      HEAD.cluster().cluster("fast-hook", "all");
    }
  }

  /**
   * Waits (at most 5 minutes) for this machine's load average to fall half a processor below its
   * processors: on a busy machine clusterrun leaves the other nodes' starts to their agents
   * (WarmStart.saturated, read again a moment later, after the run's own logins have added to the
   * load; a run that began just under the line once crossed it), and the runs here are about the
   * join.
   */
  static void quiet() {
    int cpus = Runtime.getRuntime().availableProcessors();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (true) {
      double load;
      try {
        load = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      } catch (IOException e) {
        return;
      }
      if (load < cpus - 0.5) {
        return;
      }
      assertThat(System.nanoTime())
          .as("load %s of %s processors for 5 minutes", load, cpus)
          .isLessThan(deadline);
      try {
        Thread.sleep(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** {@code run --container-name=BOX --nodes HOSTS --workspace WS ARGS}. */
  static List<String> args(String... args) {
    List<String> a = new ArrayList<>(HEAD.onNodes("run", "--container-name=" + BOX));
    a.addAll(List.of(args));
    return a;
  }

  /** A run on a machine quiet enough for the other nodes' starts to be begun during the checks. */
  static Result run(String... args) {
    quiet();
    return HEAD.run(RUN_TIMEOUT, List.of(), args(args));
  }

  @Test
  @Order(1)
  void theDaemonsJoinTheContainersBegunOnTheirNodesDuringTheChecks() throws Exception {
    Result r = ok(run("--", "hostname"));
    List<String> ran = new ArrayList<>(lines(r));
    Collections.sort(ran);
    assertThat(ran).containsExactly("node1", "node2", "node3");
    assertThat(r.stderr())
        .contains("proof: the daemons on node2, node3 run inside this run's container " + JOINED)
        .doesNotContain("left behind");
    JsonNode proof = summary(r).path("proof");
    assertThat(proof.size()).isEqualTo(2);
    proof.forEach(p -> assertThat(p.path("joined").asBoolean()).as("%s", p).isTrue());
    assertThat(JobSignals.heldAfter(HEAD.cluster(), Duration.ofSeconds(10)))
        .as("containers begun during the checks, 10 s after the run")
        .isEmpty();
  }

  @Test
  @Order(2)
  void aContainerTheLastRunWroteIntoIsStartedAfreshSoEveryNodeSeesTheWrite() {
    String mark = "mark-" + System.nanoTime();
    ok(run("--container-writable", "--", "sh", "-c", "echo " + mark + " > /ws-it-mark"));
    // The snapshot the other nodes start is taken again: what was begun from the one before is
    // not joined.
    Result r = ok(run("--", "cat", "/ws-it-mark"));
    assertThat(lines(r)).containsExactly(mark, mark, mark);
    assertThat(r.stderr()).doesNotContain("joined it");
    // The next run joins again.
    assertThat(ok(run("--", "cat", "/ws-it-mark")).stderr()).contains(JOINED);
  }

  @Test
  @Order(3)
  void theContainersLastAsLongAsTheJobAndEndWithAKilledClusterrun() throws Exception {
    LocalCluster c = HEAD.cluster();
    // A long job: the containers the daemons joined stay (their fuse mounts live as long as their
    // first process), and end with clusterrun killed.
    quiet();
    JobSignals.Running j =
        JobSignals.start(
            c, HEAD.shared(), HEAD.command(args("--", "sleep", "121")), "sleep 121", 3);
    try {
      assertThat(JobSignals.heldAfter(c, Duration.ZERO))
          .as("the first processes of the containers begun on node2 and node3, while the job runs")
          .filteredOn(p -> p.matches("[0-9]+ /bin/sh -c echo .*while read.*"))
          .hasSize(2);
      JobSignals.send(c, j, "KILL");
      assertThat(j.result().get(60, TimeUnit.SECONDS).exitCode()).isEqualTo(137);
      assertThat(JobSignals.heldAfter(c, Duration.ofSeconds(20)))
          .as("containers begun during the checks, 20 s after clusterrun was killed")
          .isEmpty();
      assertThat(JobSignals.leftAfter(c, j.runId(), Duration.ofSeconds(10))).isEmpty();
    } finally {
      JobSignals.endMasters(c);
    }
    // Killed while the containers are still being begun (hooks of 4 s on the other nodes): they
    // end with their input, which only the killed clusterrun held.
    ok(c.cluster("slow-hook", "node2", "4"));
    ok(c.cluster("slow-hook", "node3", "4"));
    try {
      quiet();
      String pidFile = "/tmp/warm-start-it.pid";
      String script =
          "cd "
              + ShellQuote.quote(HEAD.shared())
              + " && echo $$ > "
              + pidFile
              + " && exec "
              + ShellQuote.join(HEAD.command(args("--", "sleep", "122")));
      CompletableFuture<Result> running =
          CompletableFuture.supplyAsync(
              () ->
                  c.exec(
                      "node1", false, null, Duration.ofSeconds(150), List.of("sh", "-c", script)));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      List<String> held = List.of();
      while (System.nanoTime() < deadline && !running.isDone()) {
        held = JobSignals.heldAfter(c, Duration.ZERO);
        if (held.stream().filter(p -> p.contains(" sh -c set -- ")).count() >= 2) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(held)
          .as("the shells beginning the containers on node2 and node3")
          .filteredOn(p -> p.contains(" sh -c set -- "))
          .hasSizeGreaterThanOrEqualTo(2);
      ok(c.exec("node1", true, "sh", "-c", "kill -KILL $(cat " + pidFile + ")"));
      assertThat(running.get(60, TimeUnit.SECONDS).exitCode()).isEqualTo(137);
      assertThat(JobSignals.heldAfter(c, Duration.ofSeconds(20)))
          .as("containers begun during the checks, 20 s after clusterrun was killed")
          .isEmpty();
    } finally {
      c.cluster("slow-hook", "node2", "1");
      c.cluster("slow-hook", "node3", "1");
      JobSignals.endMasters(c);
    }
  }
}
