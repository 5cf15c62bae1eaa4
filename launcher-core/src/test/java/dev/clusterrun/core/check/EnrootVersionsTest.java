package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnrootVersionsTest {
  @TempDir Path tmp;

  private Path file() {
    return tmp.resolve(".clusterrun/enroot-versions");
  }

  private static Clock at(long epochSeconds) {
    return Clock.fixed(Instant.ofEpochSecond(epochSeconds), ZoneOffset.UTC);
  }

  private static Facts node(String name, String path, String id, String version, boolean known) {
    Map<String, String> raw =
        known
            ? Map.of("enroot.id", id, "enroot.version.remembered", "yes")
            : Map.of("enroot.id", id);
    return TestFacts.enroot(name, path, version, raw);
  }

  @Test
  void versionsReadAfreshAreRememberedAndGivenToTheNextRunUntilTheyAreADayOld() {
    EnrootVersions v = new EnrootVersions(file(), at(1_000_000));
    assertThat(v.table()).isEmpty();
    v.learn(
        List.of(
            node("n1", "/usr/bin/enroot", "2049:131:41401:1700000000:1700000001", "4.1.2", false),
            node(
                "n2",
                "/opt/my enroot/bin/enroot",
                "2050:7:41401:1700000000:1700000002",
                "3.5.0",
                false)));
    String table =
        "/opt/my enroot/bin/enroot 2050:7:41401:1700000000:1700000002 3.5.0\n"
            + "/usr/bin/enroot 2049:131:41401:1700000000:1700000001 4.1.2\n";
    assertThat(new EnrootVersions(file(), at(1_000_000 + 3600)).table()).isEqualTo(table);
    long dayLater = 1_000_000 + EnrootVersions.KEEP.toSeconds();
    assertThat(new EnrootVersions(file(), at(dayLater)).table()).isEmpty();
  }

  @Test
  void aVersionTakenFromTheTableIsNotRememberedAgainSoItsAgeStaysTheFirstReading()
      throws IOException {
    EnrootVersions v = new EnrootVersions(file(), at(1000));
    v.learn(List.of(node("n1", "/usr/bin/enroot", "1:2:3:4:5", "4.1.2", false)));
    String before = Files.readString(file(), StandardCharsets.UTF_8);
    new EnrootVersions(file(), at(2000))
        .learn(List.of(node("n1", "/usr/bin/enroot", "1:2:3:4:5", "4.1.2", true)));
    assertThat(Files.readString(file(), StandardCharsets.UTF_8)).isEqualTo(before);
  }

  @Test
  void whatCannotBeOneLineOfTheTableIsNotRememberedAndDamagedLinesAreSkipped() throws IOException {
    EnrootVersions v = new EnrootVersions(file(), at(1000));
    v.learn(
        List.of(
            node("a", "/bin/en\nroot", "1:2:3:4:5", "4.1.2", false),
            node("b", "/usr/bin/enroot", "1:2:3:4:6", "4.1.2\nforged 1", false),
            node("c", "/usr/bin/enroot", "1:2:3:4:7", "", false),
            node("d", "relative/enroot", "1:2:3:4:8", "4.1.2", false),
            node("e", "/usr/bin/enroot", "", "4.1.2", false)));
    assertThat(Files.exists(file())).isFalse();
    Files.createDirectories(file().getParent());
    Files.writeString(
        file(), "garbage\nx /usr/bin/enroot 1:2 4.1.2\n1000 /usr/bin/enroot 9:9:9:9:9 4.0.0\n");
    assertThat(new EnrootVersions(file(), at(1001)).table())
        .isEqualTo("/usr/bin/enroot 9:9:9:9:9 4.0.0\n");
  }

  @Test
  void aFileThatCannotBeWrittenOnlyMeansEnrootIsStartedAgain() throws IOException {
    Files.writeString(tmp.resolve(".clusterrun"), "a file where the directory would be");
    EnrootVersions v = new EnrootVersions(file(), at(1000));
    v.learn(List.of(node("n1", "/usr/bin/enroot", "1:2:3:4:5", "4.1.2", false)));
    assertThat(new EnrootVersions(file(), at(1001)).table()).isEmpty();
  }

  /** The table rides in every login's command, whose one argument Linux holds to 128 KiB. */
  @Test
  void theTableGivenToTheNodesStaysSmallWhateverThePathsAndKeepsTheNewest() {
    EnrootVersions v = new EnrootVersions(file(), at(1000));
    java.util.List<Facts> many = new java.util.ArrayList<>();
    String longDir = "/" + "d".repeat(400);
    for (int i = 0; i < EnrootVersions.MAX; i++) {
      many.add(node("n" + i, longDir + "/enroot", "1:" + i + ":3:4:5", "4.1.2", false));
    }
    v.learn(many);
    String table = new EnrootVersions(file(), at(1001)).table();
    assertThat(table.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(EnrootVersions.MAX_TABLE_BYTES);
    assertThat(table.lines().count()).isLessThan(EnrootVersions.MAX).isPositive();
    assertThat(table).startsWith(longDir + "/enroot 1:" + (EnrootVersions.MAX - 1) + ":3:4:5 ");
  }

  @Test
  void theNewestReadingsAreKept() {
    EnrootVersions v = new EnrootVersions(file(), at(1000));
    java.util.List<Facts> many = new java.util.ArrayList<>();
    for (int i = 0; i < EnrootVersions.MAX + 5; i++) {
      many.add(node("n" + i, "/usr/bin/enroot", "1:" + i + ":3:4:5", "4.1.2", false));
    }
    v.learn(many);
    String table = new EnrootVersions(file(), at(1001)).table();
    assertThat(table.lines()).hasSize(EnrootVersions.MAX);
    assertThat(table.lines().findFirst())
        .contains("/usr/bin/enroot 1:" + (EnrootVersions.MAX + 4) + ":3:4:5 4.1.2");
    assertThat(table).doesNotContain("1:0:3:4:5").contains("1:" + (EnrootVersions.MAX + 4) + ":3");
  }
}
