package dev.clusterrun.cli;

import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.cli.CliTest.Run;
import dev.clusterrun.core.image.ImageCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clusterrun images} and {@code images prune} as an operator meets them. */
class ImagesCommandsTest {
  static final String A = "sha256:" + "a".repeat(64);
  static final String B = "sha256:" + "b".repeat(64);

  /**
   * A workspace whose cache holds A (used 2 days ago, 3 MiB), B (used now, 1 KiB) and an old
   * import.
   */
  static Path workspace(Path ws) throws Exception {
    Instant now = Instant.now();
    ImageCache twoDaysAgo =
        new ImageCache(
            ws.resolve("images"), Clock.fixed(now.minus(Duration.ofDays(2)), ZoneOffset.UTC));
    twoDaysAgo.acquire(
        A,
        "docker://registry#team/app:main",
        tmp -> Files.write(tmp, new byte[3 << 20]),
        (r, d) -> {});
    ImageCache.inWorkspace(ws)
        .acquire(B, "docker://ubuntu:24.04", tmp -> Files.write(tmp, new byte[1024]), (r, d) -> {});
    Path old = ws.resolve("images/docker+++ubuntu+22.04-0123456789ab.sqsh");
    Files.write(old, new byte[2048]);
    Files.writeString(
        ws.resolve("images/docker+++ubuntu+22.04-0123456789ab.sqsh.uri"),
        "docker://ubuntu:22.04\n");
    Files.setLastModifiedTime(old, FileTime.from(now.minus(Duration.ofDays(40))));
    return ws;
  }

  @Test
  void imagesListsTheCacheMostRecentlyUsedFirst(@TempDir Path tmp) throws Exception {
    Path ws = workspace(tmp);
    Run r = run("images", "--workspace", ws.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out().lines())
        .containsExactly(
            "REFERENCE                        DIGEST               SIZE  LAST USED  IN USE",
            "docker://ubuntu:24.04            sha256:bbbbbbbbbbbb  1.0K  just now   no",
            "docker://registry#team/app:main  sha256:aaaaaaaaaaaa  3.0M  2d ago     no",
            "docker://ubuntu:22.04            (before digests)     2.0K  40d ago    no");
    assertThat(r.err()).isEqualTo("clusterrun: 3 images, 3.0M in " + ws.resolve("images") + "\n");

    // The workspace as run finds it: CLUSTERRUN_WORKSPACE, else ~/clusterrun.
    Run env =
        run(Map.of("HOME", "/nowhere", "CLUSTERRUN_WORKSPACE", ws.toString()), "images", "--json");
    assertThat(env.code()).isZero();
    JsonNode a = new ObjectMapper().readTree(env.out());
    assertThat(a).hasSize(3);
    assertThat(a.get(0).get("digest").asText()).isEqualTo(B);
    assertThat(a.get(1).get("references").get(0).asText())
        .isEqualTo("docker://registry#team/app:main");
    assertThat(a.get(1).get("size").asLong()).isEqualTo(3 << 20);
    assertThat(a.get(1).get("inUse").asBoolean()).isFalse();
    assertThat(Instant.parse(a.get(1).get("lastUsed").asText()))
        .isBefore(Instant.now().minus(Duration.ofDays(1)));
    assertThat(a.get(2).get("digest").isNull()).isTrue();
    Run home = run(Map.of("HOME", tmp.toString()), "images");
    assertThat(home.code()).isZero();
    assertThat(home.err())
        .isEqualTo("clusterrun: no images cached in " + tmp.resolve("clusterrun/images") + "\n");
  }

  @Test
  void pruneRemovesByAgeOrAllAndKeepsWhatARunUses(@TempDir Path tmp) throws Exception {
    Path ws = workspace(tmp);
    Run week = run("images", "prune", "--older-than", "7d", "--workspace", ws.toString());
    assertThat(week.code()).isZero();
    assertThat(week.out().lines())
        .containsExactly(
            "REFERENCE              DIGEST            SIZE  LAST USED  IN USE",
            "docker://ubuntu:22.04  (before digests)  2.0K  40d ago    no");
    assertThat(week.err()).isEqualTo("clusterrun: removed 1 image, 2.0K freed\n");

    try (ImageCache.Lease running = ImageCache.inWorkspace(ws).lease(B, "run-1")) {
      Run all = run("images", "prune", "--all", "--workspace", ws.toString(), "--json");
      assertThat(all.code()).isZero();
      JsonNode o = new ObjectMapper().readTree(all.out());
      assertThat(o.get("removed")).hasSize(1);
      assertThat(o.get("removed").get(0).get("digest").asText()).isEqualTo(A);
      assertThat(o.get("kept").get(0).get("digest").asText()).isEqualTo(B);
      assertThat(o.get("kept").get(0).get("inUse").asBoolean()).isTrue();
      assertThat(o.get("freed").asLong()).isEqualTo(3 << 20);
      assertThat(all.err())
          .isEqualTo(
              "clusterrun: kept docker://ubuntu:24.04 (sha256:bbbbbbbbbbbb): a running job uses it,"
                  + " or it is being imported\n");
      Run list = run("images", "--workspace", ws.toString());
      assertThat(list.out())
          .contains("docker://ubuntu:24.04  sha256:bbbbbbbbbbbb  1.0K  just now   yes");
    }
    Run again = run("images", "prune", "--all", "--workspace", ws.toString());
    assertThat(again.err()).isEqualTo("clusterrun: removed 1 image, 1.0K freed\n");
    Run none = run("images", "prune", "--all", "--workspace", ws.toString());
    assertThat(none.out()).isEmpty();
    assertThat(none.err())
        .isEqualTo("clusterrun: nothing to remove in " + ws.resolve("images") + "\n");
  }

  @Test
  void badInputIsNamedWithExit2(@TempDir Path tmp) throws Exception {
    String ws = tmp.toString();
    Run age = run("images", "prune", "--older-than", "a week", "--workspace", ws);
    assertThat(age.code()).isEqualTo(2);
    assertThat(age.out()).isEmpty();
    assertThat(age.err())
        .isEqualTo(
            "clusterrun: --older-than: expected an age such as 30m, 12h, 7d or 2w, got 'a week'\n");
    Run neither = run("images", "prune", "--workspace", ws);
    assertThat(neither.code()).isEqualTo(2);
    assertThat(neither.err())
        .isEqualTo(
            "clusterrun: images prune: say what to remove: --older-than AGE (e.g. 7d) or --all\n");
    Run both = run("images", "prune", "--all", "--older-than", "7d", "--workspace", ws);
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err())
        .isEqualTo("clusterrun: --older-than: contradicts --all; give only one of them\n");
    Path file = Files.writeString(tmp.resolve("file"), "");
    Run notDir = run("images", "--workspace", file.toString());
    assertThat(notDir.code()).isEqualTo(2);
    assertThat(notDir.err())
        .isEqualTo("clusterrun: --workspace: " + file + " is not a directory\n");
    // A damaged record is said, not a stack trace; the image is still listed.
    workspace(tmp.resolve("ws"));
    Files.writeString(tmp.resolve("ws/images/sha256-" + "a".repeat(64) + ".json"), "[1,");
    Run damaged = run("images", "--workspace", tmp.resolve("ws").toString());
    assertThat(damaged.code()).isZero();
    assertThat(damaged.out()).containsPattern("\n\\(unknown\\) +sha256:aaaaaaaaaaaa  3.0M ");
    assertThat(damaged.err())
        .startsWith(
            "clusterrun: "
                + tmp.resolve("ws/images/sha256-" + "a".repeat(64) + ".json")
                + ": not JSON (");
  }

  @Test
  void planShowsTheLimitAndWhereItCameFrom() {
    Run r =
        run(
            Map.of("HOME", "/home/tester", "CLUSTERRUN_IMAGE_CACHE_LIMIT", "500M"),
            "plan",
            "--nodes",
            CliTest.path("hostfiles/2x8.txt"),
            "--container-image=ubuntu",
            "hostname");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern(
            "\nworkspace\\.image-cache-limit +500M +environment \\(CLUSTERRUN_IMAGE_CACHE_LIMIT\\)\n");
    Run flag =
        run(
            "plan",
            "--nodes",
            CliTest.path("hostfiles/2x8.txt"),
            "--image-cache-limit",
            "2T",
            "--container-image=ubuntu",
            "hostname");
    assertThat(flag.out())
        .containsPattern("\nworkspace\\.image-cache-limit +2T +flag \\(--image-cache-limit\\)\n");
    Run dflt =
        run(
            "plan",
            "--nodes",
            CliTest.path("hostfiles/2x8.txt"),
            "--container-image=ubuntu",
            "hostname");
    assertThat(dflt.out()).containsPattern("\nworkspace\\.image-cache-limit +100G +default\n");
    Run bad =
        run(
            "run",
            "--nodes",
            CliTest.path("hostfiles/2x8.txt"),
            "--image-cache-limit=lots",
            "--container-image=ubuntu",
            "hostname");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err())
        .isEqualTo(
            "clusterrun: --image-cache-limit: expected a size such as 500M, 50G or 1T (powers of"
                + " 1024), found 'lots'\n");
  }
}
