package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.it.LocalCluster.Result;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One slow node is named while the others wait (issue 36): node3's enroot hooks take 25 s, so its
 * daemon proves itself long after node2's; clusterrun names node3 as slow every 10 s, and the job
 * runs once it has proved itself.
 */
class SlowNodeIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "slow-hosts", 1, "slow-ws");

  static String image;

  @BeforeAll
  static void setupAndOneSlowNode() {
    LocalCluster c = HEAD.cluster();
    HEAD.setup(HEAD.shared() + "/enroot-data");
    image = HEAD.shared() + "/slow-image.sqsh";
    Runs.imageFileAt(c, image);
    ok(c.cluster("slow-hook", "node3", "25"));
  }

  @AfterAll
  static void fastHooks() {
    if (HEAD.isUp()) {
      HEAD.cluster().cluster("fast-hook", "node3");
    }
  }

  @Test
  void theNodeWhoseHooksTake25sIsNamedWhileTheOthersWaitAndTheJobThenRuns() {
    List<String> args = HEAD.onNodes("run");
    args.addAll(List.of("--container-image=" + image, "--stdin=none", "hostname"));
    Result r = HEAD.run(Duration.ofSeconds(240), List.of(), args);
    ok(r);
    assertThat(r.stdout().lines().sorted().toList()).containsExactly("node1", "node2", "node3");
    assertThat(r.stderr())
        .containsPattern(
            "slow: node3: its daemon has not proved itself after 1\\d s \\(1 node's did\\):"
                + " enroot start is slow there \\(its hooks\\?\\)")
        .doesNotContain("slow: node2");
  }
}
