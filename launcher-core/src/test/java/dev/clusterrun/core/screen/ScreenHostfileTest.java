package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.cluster.NodeSelection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScreenHostfileTest {
  @TempDir Path dir;

  @Test
  void leavesOutExactlyTheFlaggedNodes_otherLinesAsWritten() throws Exception {
    Path in = dir.resolve("hosts.txt");
    Files.writeString(in, "# the rack\nn1 slots=2\nn2   slots=2 # spare\n\nm[1-3] slots=4\n");
    Path out = dir.resolve("good.txt");
    ScreenHostfile.write(in, HostfileParser.read(in), List.of("n2", "m2"), out);
    assertThat(Files.readString(out))
        .isEqualTo(
            "# the rack\nn1 slots=2\n# clusterrun screen left out: n2\n\n"
                + "# clusterrun screen left out: m2\nm1 slots=4\nm3 slots=4\n");
  }

  @Test
  void whatItWritesIsAFileForExcludeAt_fromAHostfileAndFromANodeList() throws Exception {
    Path in = dir.resolve("hosts.txt");
    Files.writeString(in, "# the rack\nn1 slots=2\nn[2-4] slots=2 # spare\n");
    Path good = dir.resolve("good.txt");
    ScreenHostfile.write(in, HostfileParser.read(in), List.of("n3"), good);
    NodeSelection excludeGood = new NodeSelection("n[1-5]", null, List.of("@" + good), null);
    assertThat(excludeGood.read(java.util.Map.of(), dir).names()).containsExactly("n3", "n5");

    var listed = new NodeSelection("g[01-04]", 4, List.of(), null).read(java.util.Map.of(), dir);
    Path fromList = dir.resolve("from-list.txt");
    ScreenHostfile.write(null, listed, List.of("g02"), fromList);
    assertThat(Files.readString(fromList))
        .isEqualTo(
            "# clusterrun screen: the nodes of --nodes g[01-04] (--slots 4); left out: g02\n"
                + "g01 slots=4\ng03 slots=4\ng04 slots=4\n");
    assertThat(
            new NodeSelection("g[01-04]", null, List.of("@" + fromList), null)
                .read(java.util.Map.of(), dir)
                .names())
        .containsExactly("g02");
    // ... and a hostfile for --nodes.
    assertThat(
            new NodeSelection(fromList.toString(), null, List.of(), null)
                .read(java.util.Map.of(), dir)
                .totalSlots())
        .isEqualTo(12);
  }

  @Test
  void nothingFlagged_theSameText() throws Exception {
    Path in = dir.resolve("hosts.txt");
    Files.writeString(in, "n1\nn2 slots=1\n");
    assertThat(ScreenHostfile.without(in, List.of())).isEqualTo("n1\nn2 slots=1\n");
  }

  @Test
  void tolerance_percentOrBadInputNamingTheFlag() {
    assertThat(Tolerances.percent("10%")).isEqualTo(0.10);
    assertThat(Tolerances.percent("25")).isEqualTo(0.25);
    for (String bad : new String[] {"0", "100%", "ten", "-5%"}) {
      assertThatThrownBy(() -> Tolerances.percent(bad))
          .isInstanceOf(BadInputException.class)
          .hasMessageContaining("--tolerance");
    }
  }
}
