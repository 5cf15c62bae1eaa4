package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
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
    ScreenHostfile.write(in, List.of("n2", "m2"), out);
    assertThat(Files.readString(out))
        .isEqualTo(
            "# the rack\nn1 slots=2\n# clusterrun screen left out: n2\n\n"
                + "# clusterrun screen left out: m2\nm1 slots=4\nm3 slots=4\n");
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
