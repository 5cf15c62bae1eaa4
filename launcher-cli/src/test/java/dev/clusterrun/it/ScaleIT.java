package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A named container on 64 nodes whose enroot hooks each take 0.8 s, as a GPU node's NVIDIA hook
 * does (docs/scale.md). enroot holds the rootfs lock of a named container ({@code flock -w 30} on
 * {@code ROOTFS/.lock}) while it runs the hooks: with the rootfs on the shared data path every node
 * queued on that one lock, 64 × 0.8 s is past the 30 s, and the nodes past some 37 failed with
 * {@code Could not acquire rootfs lock}. Now only the head starts the named container; the other
 * nodes start its squashfs snapshot, each with a lock of its own.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleIT {
  static final int NODES = 64;
  static final String HOOK_SECONDS = "0.8";
  static final Duration TIMEOUT = Duration.ofSeconds(300);

  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(NODES, "hosts", 1, "ws");

  static String image;

  @BeforeAll
  static void setupImageAndSlowHooks() {
    LocalCluster c = HEAD.cluster();
    Runs.keepMpiOnClusterNetwork(c);
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = HEAD.shared() + "/scale-image.sqsh";
    Runs.imageFileAt(c, image);
    ok(c.cluster("slow-hook", "all", HOOK_SECONDS));
  }

  @AfterAll
  static void fastHooks() {
    if (HEAD.isUp()) {
      HEAD.cluster().cluster("fast-hook", "all");
    }
  }

  @Test
  @Order(1)
  void aNamedContainerRunsOnEveryNodeThoughEachNodesHooksTakeWhatAGpuNodesDo() {
    Result r =
        HEAD.run(
            TIMEOUT,
            List.of(),
            run(
                "--container-image=" + image,
                "--container-name=scale-named",
                "--container-writable",
                "sh",
                "-c",
                "hostname; echo scale-marker > /scale-marker"));
    ok(r);
    assertThat(perNode(r, "")).hasSize(NODES);
    assertThat(r.stderr()).doesNotContain("Could not acquire rootfs lock");
    JsonNode s = Runs.summary(r);
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    System.err.println("ScaleIT: phases at " + NODES + " nodes: " + s.path("durationsSeconds"));
  }

  @Test
  @Order(2)
  void whatTheWritableJobWroteIsThereNextTimeOnEveryNode() {
    Result r =
        HEAD.run(
            TIMEOUT,
            List.of(),
            run(
                "--container-name=scale-named",
                "sh",
                "-c",
                "echo \"$(hostname) $(cat /scale-marker)\""));
    ok(r);
    Map<String, String> seen = perNode(r, " ");
    assertThat(seen).hasSize(NODES);
    assertThat(seen.values()).containsOnly("scale-marker");
  }

  /**
   * A node whose {@code enroot start} fails never starts its daemon: the run names that node and
   * what it said (enroot's own message), never a foreign launch agent.
   */
  @Test
  @Order(3)
  void aNodeWhoseEnrootStartFailsIsNamedWithItsOwnError() {
    LocalCluster c = HEAD.cluster();
    String last = "node" + NODES;
    c.writeEnrootFile(last, "hooks.d/95-fails.sh", "#!/bin/sh\nexit 7\n", "rwxr-xr-x");
    try {
      Result r = HEAD.run(TIMEOUT, List.of(), run("--container-name=scale-named", "true"));
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      // mpirun may stop before other daemons proved themselves: they are named beside it.
      assertThat(r.stderr())
          .containsPattern(last + ": no proof from (its daemon|their daemons); what the nodes said")
          .contains(
              "what the nodes said on mpirun's standard error (which names no node):"
                  + " `[ERROR] /etc/enroot/hooks.d/95-fails.sh exited with return code 7`")
          .doesNotContain("replaces clusterrun's launch agent");
      assertThat(Runs.summary(r).path("outcome").asText()).isEqualTo("proof-failed");
    } finally {
      try {
        java.nio.file.Files.deleteIfExists(c.nodeEnrootDir(last).resolve("hooks.d/95-fails.sh"));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** {@code run --nodes HOSTS --workspace WS WORDS...}: the options before the command's words. */
  static List<String> run(String... words) {
    List<String> a = new ArrayList<>(HEAD.onNodes("run"));
    a.addAll(List.of(words));
    return a;
  }

  /** Each output line's first word (a node's hostname) and the rest of it. */
  static Map<String, String> perNode(Result r, String sep) {
    Map<String, String> m = new TreeMap<>();
    for (String l : Runs.lines(r)) {
      String line = l.strip();
      if (sep.isEmpty()) {
        m.put(line, "");
      } else {
        int i = line.indexOf(sep);
        m.put(i < 0 ? line : line.substring(0, i), i < 0 ? "" : line.substring(i + 1));
      }
    }
    return m;
  }
}
