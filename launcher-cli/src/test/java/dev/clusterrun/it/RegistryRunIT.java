package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Registry images as a CI uses them, on a 3-node local cluster with its own registry (Docker's
 * distribution over plain HTTP, allowed by the nodes' site drop-in): each run asks the registry
 * what the tag is now and runs exactly that digest, imported once into the workspace's cache; a tag
 * pushed again runs its new content on every rank; a private repository needs its credentials
 * before anything starts; the cache stays under its limit without taking a running job's image.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegistryRunIT {
  /** This class's own names: its hostfile, workspace and repository. */
  static final String ID = UUID.randomUUID().toString().substring(0, 8);

  @RegisterExtension
  static final ClusterrunExtension HEAD =
      new ClusterrunExtension(3, "reg-hosts-" + ID, 1, "reg-ws-" + ID);

  static final Duration TIMEOUT = Duration.ofSeconds(240);
  static final ObjectMapper JSON = new ObjectMapper();
  static final String REPO = "lab/moved-" + ID;

  @BeforeAll
  static void setupOnce() {
    HEAD.setup(HEAD.shared() + "/enroot-data");
  }

  /** The tag, in the open registry, as a job names it. */
  static String image(String tag) {
    return "docker://" + HEAD.cluster().registry() + "#" + REPO + ":" + tag;
  }

  /** {@code clusterrun ARGS} on node1 as the job user, from the shared directory. */
  static Result run(List<String> args, String... env) {
    return HEAD.run(TIMEOUT, Arrays.asList(env), args);
  }

  /** A job of 3 ranks, one a node, that prints the image's /opt/tiny/VERSION. */
  static List<String> versionJob(String image, String... more) {
    return job(image, Arrays.asList(more), "cat", "/opt/tiny/VERSION");
  }

  /** A job of 3 ranks, one a node, in {@code image}: {@code run ... MORE -- COMMAND}. */
  static List<String> job(String image, List<String> more, String... command) {
    List<String> a = HEAD.onNodes("run");
    a.addAll(List.of("--np", "3", "--container-image=" + image));
    a.addAll(more);
    a.add("--");
    a.addAll(Arrays.asList(command));
    return a;
  }

  static List<String> lines(Result r) {
    return r.stdout().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  static List<Path> cached() throws IOException {
    try (Stream<Path> s = Files.list(Paths.get(HEAD.ws(), "images"))) {
      return s.filter(p -> p.getFileName().toString().matches("sha256-[0-9a-f]{64}\\.sqsh"))
          .sorted()
          .toList();
    }
  }

  @Test
  @Order(1)
  void aTagPushedAgainRunsItsNewContentOnEveryRankAndAnUnchangedOneIsNotImportedAgain()
      throws IOException {
    String d1 = HEAD.cluster().push(REPO + ":main", "--add", "/opt/tiny/VERSION=one");
    Result first = ok(run(versionJob(image("main"))));
    assertThat(lines(first)).containsExactly("one", "one", "one");
    assertThat(first.stderr()).contains("imported " + image("main") + "@" + d1);
    JsonNode s1 = summary(first);
    assertThat(s1.get("imageDigest").asText()).isEqualTo(d1);
    assertThat(s1.get("image").asText()).isEqualTo(image("main") + "@" + d1);
    assertThat(s1.get("durationsSeconds").has("import")).isTrue();

    // The CI pushes the branch again: the same tag, new content.
    String d2 = HEAD.cluster().push(REPO + ":main", "--add", "/opt/tiny/VERSION=two");
    assertThat(d2).isNotEqualTo(d1);
    Result second = ok(run(versionJob(image("main"))));
    assertThat(lines(second)).containsExactly("two", "two", "two");
    assertThat(summary(second).get("imageDigest").asText()).isEqualTo(d2);

    // Unchanged: no import, the same digest, the cached file.
    Result third = ok(run(versionJob(image("main"))));
    assertThat(lines(third)).containsExactly("two", "two", "two");
    assertThat(third.stderr())
        .contains("image already imported")
        .contains(d2)
        .doesNotContain("imported " + image("main"));
    assertThat(summary(third).get("durationsSeconds").has("import")).isFalse();
    assertThat(cached()).hasSize(2);

    // plan names the digest it would use.
    Result plan =
        ok(
            run(
                List.of(
                    "plan",
                    "--nodes",
                    HEAD.hosts(),
                    "--workspace",
                    HEAD.ws(),
                    "--container-image=" + image("main"),
                    "hostname")));
    assertThat(plan.stdout()).contains("# image " + image("main") + " is " + d2);
  }

  @Test
  @Order(2)
  void aNamedContainerMadeFromATagThatMovedIsMadeAgainAndSaysSo() throws IOException {
    String d3 = HEAD.cluster().push(REPO + ":named", "--add", "/opt/tiny/VERSION=three");
    String name = "reg-named-" + UUID.randomUUID().toString().substring(0, 6);
    Result made = ok(run(versionJob(image("named"), "--container-name=" + name)));
    assertThat(lines(made)).containsExactly("three", "three", "three");
    Result reused = ok(run(versionJob(image("named"), "--container-name=" + name)));
    assertThat(reused.stderr()).contains("reused container " + name);
    String d4 = HEAD.cluster().push(REPO + ":named", "--add", "/opt/tiny/VERSION=four");
    Result moved = ok(run(versionJob(image("named"), "--container-name=" + name)));
    assertThat(lines(moved)).containsExactly("four", "four", "four");
    assertThat(moved.stderr())
        .contains("container " + name + " was made from " + image("named") + "@" + d3)
        .contains("re-creating it from " + image("named") + "@" + d4);
  }

  @Test
  @Order(3)
  void fourRunsAskingForOneNewDigestAtOnceImportItOnce() throws Exception {
    String d = HEAD.cluster().push(REPO + ":together", "--add", "/opt/tiny/VERSION=together");
    List<CompletableFuture<Result>> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      runs.add(CompletableFuture.supplyAsync(() -> run(versionJob(image("together")))));
    }
    int imports = 0;
    for (CompletableFuture<Result> f : runs) {
      Result r = ok(f.get());
      assertThat(lines(r)).containsExactly("together", "together", "together");
      if (r.stderr().contains("imported " + image("together") + "@" + d)) {
        imports++;
      }
    }
    assertThat(imports).isEqualTo(1);
    assertThat(cached())
        .filteredOn(p -> p.getFileName().toString().equals("sha256-" + d.substring(7) + ".sqsh"))
        .hasSize(1);
  }

  @Test
  @Order(4)
  void evictionUnderASmallLimitNeverTakesARunningJobsImage() throws Exception {
    String dLong = HEAD.cluster().push(REPO + ":long", "--add", "/opt/tiny/VERSION=long");
    String dShort = HEAD.cluster().push(REPO + ":short", "--add", "/opt/tiny/VERSION=short");
    // A job that runs on its image until the test opens its gate (at most 120 s): however long
    // the next import takes, it is still running then...
    Path gate =
        Paths.get(HEAD.ws(), "eviction-gate-" + UUID.randomUUID().toString().substring(0, 6));
    String wait =
        "i=0; while [ ! -e /workspace/"
            + gate.getFileName()
            + " ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; cat /opt/tiny/VERSION";
    List<String> longJob = job(image("long"), List.of(), "sh", "-c", wait);
    Path longFile = Paths.get(HEAD.ws(), "images", "sha256-" + dLong.substring(7) + ".sqsh");
    CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> run(longJob));
    try {
      long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!Files.exists(longFile) && System.nanoTime() < until) {
        Thread.sleep(200);
      }
      assertThat(longFile).exists();
      // ... while another run brings the cache down to nothing: only images not in use may go.
      Result small = ok(run(versionJob(image("short"), "--image-cache-limit", "1")));
      assertThat(lines(small)).containsExactly("short", "short", "short");
      assertThat(small.stderr()).contains("removed from the image cache (least recently used)");
      assertThat(longFile).exists();
      assertThat(running.isDone())
          .as("the long job, still waiting for its gate: %s", running.isDone() ? running.get() : "")
          .isFalse();
    } finally {
      Files.writeString(gate, "open\n");
    }
    Result done = ok(running.get());
    Files.delete(gate);
    assertThat(lines(done)).containsExactly("long", "long", "long");
    // Once it ended, the next run under the limit may take it.
    Result after = ok(run(versionJob(image("short"), "--image-cache-limit", "1")));
    assertThat(after.stderr()).contains(dLong);
    assertThat(longFile).doesNotExist();
    assertThat(Paths.get(HEAD.ws(), "images", "sha256-" + dShort.substring(7) + ".sqsh")).exists();
  }

  @Test
  @Order(5)
  void anUnreachableRegistryRunsTheCachedImportWithAWarningAndNothingCachedIsExit3()
      throws IOException {
    String d = HEAD.cluster().push(REPO + ":offline", "--add", "/opt/tiny/VERSION=offline");
    ok(run(versionJob(image("offline"))));
    // The registry out of reach: every request of the head goes to a proxy nobody listens on.
    String[] away = {"http_proxy=http://127.0.0.1:9", "no_proxy="};
    Result cachedRun = ok(run(versionJob(image("offline")), away));
    assertThat(lines(cachedRun)).containsExactly("offline", "offline", "offline");
    assertThat(cachedRun.stderr())
        .contains("using the newest cached import of")
        .contains(" ago (" + d + ")");
    Result none = run(versionJob(image("never-pushed")), away);
    assertThat(none.exitCode()).as("%s", none).isEqualTo(3);
    assertThat(none.stderr())
        .contains(HEAD.cluster().registry())
        .contains(REPO)
        .contains("never-pushed");
    assertThat(none.stdout()).isEmpty();
  }

  @Test
  @Order(6)
  void aPrivateRepositoryWithoutCredentialsFailsInTheChecksNamingTheFileAndWithThemItRuns()
      throws IOException {
    String priv = "docker://" + HEAD.cluster().privateRegistry() + "#clusterrun/tiny";
    String config = HEAD.shared() + "/reg-config-" + UUID.randomUUID().toString().substring(0, 6);
    ok(HEAD.cluster().exec("node1", "mkdir", "-p", config));
    String[] env = {"ENROOT_CONFIG_PATH=" + config};
    List<String> job = job(priv, List.of(), "hostname");
    Result refused = run(job, env);
    assertThat(refused.exitCode()).as("%s", refused).isEqualTo(3);
    assertThat(refused.stderr())
        .contains("401")
        .contains(config + "/.credentials")
        .contains(
            "machine " + HEAD.cluster().privateRegistry().replaceAll(":[0-9]+$", "") + " login")
        .doesNotContain(HEAD.cluster().privateRegistryPassword());
    // check names the same before any run: the job file gives the image.
    String jobFile = config + "/job.yaml";
    HEAD.cluster()
        .writeAsJobUser(
            jobFile, "name: private\ncontainer:\n  image: " + priv + "\ncommand: [hostname]\n");
    Result check = run(List.of("check", "--nodes", HEAD.hosts(), "--only", "image", jobFile), env);
    assertThat(check.exitCode()).as("%s", check).isEqualTo(3);
    assertThat(check.stdout() + check.stderr()).contains("401").contains(config + "/.credentials");

    String line =
        "machine "
            + HEAD.cluster().privateRegistry().replaceAll(":[0-9]+$", "")
            + " login "
            + HEAD.cluster().privateRegistryUser()
            + " password "
            + HEAD.cluster().privateRegistryPassword()
            + "\n";
    ok(
        HEAD.cluster()
            .exec(
                "node1",
                false,
                line,
                Duration.ofSeconds(30),
                List.of(
                    "sh", "-c", "umask 077; cat > " + ShellQuote.quote(config + "/.credentials"))));
    Result allowed = ok(run(job, env));
    assertThat(lines(allowed)).hasSize(3);
    assertThat(allowed.stdout() + allowed.stderr())
        .doesNotContain(HEAD.cluster().privateRegistryPassword());
  }

  @Test
  @Order(7)
  void imagesListsTheCacheAndPruneAllEmptiesIt() {
    Result list = ok(run(List.of("images", "--workspace", HEAD.ws())));
    assertThat(list.stdout()).contains(REPO);
    Result pruned = ok(run(List.of("images", "prune", "--all", "--workspace", HEAD.ws())));
    assertThat(pruned.exitCode()).isZero();
    Result after = ok(run(List.of("images", "--workspace", HEAD.ws(), "--json")));
    assertThat(after.stdout()).doesNotContain(REPO);
  }
}
