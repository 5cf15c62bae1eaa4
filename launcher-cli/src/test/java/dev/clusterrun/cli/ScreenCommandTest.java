package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code clusterrun screen}'s bad input, refused before any node is touched. */
class ScreenCommandTest {
  /** {@code screen --nodes hostfiles/2x8.txt FLAGS}, held to have been refused as bad input. */
  static CliTest.Run refusedOn2x8(String... flags) {
    CliTest.Run r = CliTest.run(CliTest.on2x8("screen"), flags);
    assertThat(r.code()).isEqualTo(2);
    return r;
  }

  @Test
  void aToleranceThatIsNoPercentageIsBadInputNamingTheFlag() {
    CliTest.Run r = refusedOn2x8("--tolerance", "lots");
    assertThat(r.err())
        .startsWith("clusterrun: --tolerance: 'lots' is not a percentage above 0 and below 100");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void aToleranceForAMetricThatDoesNotExist_orAReferencesFileWithout_badInputBeforeAnyNode()
      throws Exception {
    CliTest.Run r = refusedOn2x8("--tolerance", "10%", "--tolerance", "bandwith=15%");
    assertThat(r.err())
        .startsWith("clusterrun: --tolerance: 'bandwith=15%': 'bandwith' is not a metric")
        .contains("did you mean 'bandwidth'?");
    java.nio.file.Path refs = java.nio.file.Files.createTempFile("refs", ".yaml");
    java.nio.file.Files.writeString(
        refs, "clusters:\n  other:\n    screen:\n      - metrics:\n          memory: {value: 1}\n");
    CliTest.Run none = refusedOn2x8("--references", refs.toString());
    assertThat(none.err())
        .startsWith(
            "clusterrun: --references: "
                + refs
                + " has no reference for screen on cluster"
                + " '2x8'");
    java.nio.file.Files.delete(refs);
  }

  @Test
  void npIsRefused_theScreenPlacesOneRankOnEachSlot() {
    CliTest.Run r = refusedOn2x8("--np", "4");
    assertThat(r.err()).startsWith("clusterrun: --np: screen runs one rank on each slot");
  }

  @Test
  void aRepeatOutOfRangeIsBadInputNamingTheFlag() {
    CliTest.Run r = refusedOn2x8("--repeat", "0");
    assertThat(r.err()).startsWith("clusterrun: --repeat: must be from 1 to 100, got 0");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void oneNodeIsBadInputNamingTheHostfile() throws Exception {
    java.nio.file.Path one = java.nio.file.Files.createTempFile("one", ".txt");
    java.nio.file.Files.writeString(one, "n1 slots=1\n");
    CliTest.Run r = CliTest.run("screen", "--nodes", one.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("a screen needs at least two nodes");
    java.nio.file.Files.delete(one);
  }

  @Test
  void helpListsTheScreensExitCodes() {
    CliTest.Run r = CliTest.run("screen", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("--tolerance=[METRIC=]PERCENT")
        .contains("--references=FILE")
        .contains("--cluster=NAME")
        .contains("--write-hostfile=FILE")
        .contains("--repeat=N")
        .contains("--junit=FILE")
        .contains("screen: a node or a link was flagged");
  }
}
