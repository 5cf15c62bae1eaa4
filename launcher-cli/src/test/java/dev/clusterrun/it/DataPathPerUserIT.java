package dev.clusterrun.it;

import static dev.clusterrun.it.CheckReports.result;
import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.it.LocalCluster.JobUser;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The usual multi-user layout, {@code setup --data-path '<shared>/enroot/$(id -u)'}, end to end on
 * a 2-node local cluster: the drop-in carries the template unquoted, enroot expands it for each
 * user, setup and check prove the directory of the user running them, and the two job users (same
 * uids on every node) each make their own named container {@code X} at the same time. A hostile
 * template is refused before any node runs anything.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DataPathPerUserIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(2, "pu-hosts", 1, null);

  static final Duration TIMEOUT = Duration.ofSeconds(180);
  static final String DROP_IN = "/etc/enroot/enroot.conf.d/50-clusterrun.conf";

  static String root;
  static String template;
  static List<String> imageFlags;

  @BeforeAll
  static void theSitesPerUserRoot() {
    LocalCluster c = HEAD.cluster();
    root = HEAD.shared() + "/enroot";
    template = root + "/$(id -u)";
    // The site's part: a root every user may make their own directory in (sticky, like /tmp).
    ok(c.exec("node1", true, "install", "-d", "-m", "1777", root));
    imageFlags = Runs.orTinyImage(c, Runs.givenImageFlags(c, HEAD.shared() + "/it-image.sqsh"));
  }

  @Test
  @Order(1)
  void aHostileTemplateIsRefusedWithExit2AndNothingRuns() {
    String marker = HEAD.shared() + "/pu-pwned";
    for (String bad :
        List.of(
            root + "/$(touch " + marker + ")",
            root + "/`touch " + marker + "`",
            root + "/${UID:-$(touch " + marker + ")}",
            root + "/$UID;touch " + marker)) {
      Result r = setup(bad);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
      assertThat(r.stderr()).as(bad).startsWith("clusterrun: --data-path: ").contains("'");
      assertThat(Paths.get(marker)).as(bad).doesNotExist();
    }
    for (String node : HEAD.cluster().nodes()) {
      assertThat(HEAD.cluster().exec(node, "test", "-e", DROP_IN).exitCode()).as(node).isNotZero();
    }
  }

  @Test
  @Order(2)
  void setupWritesTheTemplateUnquotedAndProvesTheDirectoryOfItsUser() {
    Result r = ok(setup(template));
    for (String node : HEAD.cluster().nodes()) {
      assertThat(r.stdout()).contains(node + ": changed");
      assertThat(ok(HEAD.cluster().exec(node, "cat", DROP_IN)).stdout())
          .contains("\nENROOT_DATA_PATH " + template + "\n");
    }
    // The proof made the job user's own directory, never one named after the template.
    assertThat(Paths.get(root, String.valueOf(HEAD.cluster().user1().uid()))).isDirectory();
    assertThat(literalTemplates()).isEmpty();
  }

  @Test
  @Order(3)
  void twoUsersEachMakeTheirOwnContainerXAtTheSameTimeInTheirOwnDirectory() throws Exception {
    JobUser one = HEAD.cluster().user1();
    JobUser two = HEAD.cluster().user2();
    CompletableFuture<Result> a = CompletableFuture.supplyAsync(() -> runX(one));
    CompletableFuture<Result> b = CompletableFuture.supplyAsync(() -> runX(two));
    Result ra = ok(a.get(300, TimeUnit.SECONDS));
    Result rb = ok(b.get(300, TimeUnit.SECONDS));
    // Every rank ran as its user, and each user made X (neither found the other's).
    assertThat(ra.stdout().lines().filter(l -> l.equals("uid=" + one.uid()))).hasSize(2);
    assertThat(rb.stdout().lines().filter(l -> l.equals("uid=" + two.uid()))).hasSize(2);
    assertThat(ra.stdout() + ra.stderr()).contains("created container X ");
    assertThat(rb.stdout() + rb.stderr()).contains("created container X ");
    for (JobUser u : List.of(one, two)) {
      Path x = Paths.get(root, String.valueOf(u.uid()), "X");
      assertThat(x).as(u.name()).isDirectory();
      assertThat(Files.getAttribute(x, "unix:uid")).as(u.name()).isEqualTo(u.uid());
    }
    assertThat(literalTemplates()).isEmpty();
  }

  @Test
  @Order(4)
  void checkShowsEachUsersValueBesideTheTemplateAndProvesIt() throws IOException {
    for (JobUser u : List.of(HEAD.cluster().user1(), HEAD.cluster().user2())) {
      Result r = ok(as(u, List.of(HEAD.launcher(), "check", "--nodes", HEAD.hosts(), "--json")));
      JsonNode report = new ObjectMapper().readTree(r.stdout());
      for (String node : HEAD.cluster().nodes()) {
        JsonNode data = result(report, node, "data-path");
        assertThat(data.get("status").asText()).as("%s %s", u.name(), data).isEqualTo("PASS");
        assertThat(data.get("reason").asText())
            .as(u.name())
            .startsWith(root + "/" + u.uid() + " (= " + template + ", from " + DROP_IN + ":");
        JsonNode sharedCheck = result(report, node, "data-path-shared");
        assertThat(sharedCheck.get("status").asText()).as("%s", sharedCheck).isEqualTo("PASS");
        assertThat(sharedCheck.get("reason").asText()).contains(root + "/" + u.uid());
      }
    }
    assertThat(literalTemplates()).isEmpty();
  }

  // ----------------------------------------------------------------------------------------------

  /** Any file or directory under the shared root named with the template's text. */
  static List<Path> literalTemplates() {
    try (Stream<Path> all = Files.walk(Paths.get(HEAD.shared()))) {
      return all.filter(p -> p.getFileName().toString().contains("$(")).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Result setup(String dataPath) {
    return HEAD.trySetup(dataPath, TIMEOUT);
  }

  /** {@code run --container-name=X}: each rank prints its uid. */
  static Result runX(JobUser u) {
    List<String> cmd = new ArrayList<>(List.of(HEAD.launcher(), "run", "--nodes", HEAD.hosts()));
    cmd.addAll(imageFlags);
    cmd.addAll(List.of("--container-name=X", "--", "sh", "-c", "echo uid=$(id -u)"));
    return as(u, cmd);
  }

  static Result as(JobUser u, List<String> cmd) {
    return Runs.shownAs(HEAD.cluster(), u, HEAD.shared(), TIMEOUT, cmd);
  }
}
