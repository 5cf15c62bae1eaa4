package dev.clusterrun.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoriesTest {
  @TempDir Path ws;

  Path run(String id) throws Exception {
    return Files.createDirectories(ws.resolve("runs").resolve(id));
  }

  @Test
  void theFullRunIdNamesItsDirectoryAndItsTailOrBeginningTheOneRunItFits() throws Exception {
    Path a = run("20261127-040000-train-ab12");
    Path b = run("20261127-041500-train-77ff");
    assertThat(RunDirectories.find(ws, "20261127-040000-train-ab12")).isEqualTo(a);
    assertThat(RunDirectories.find(ws, "77ff")).isEqualTo(b);
    assertThat(RunDirectories.find(ws, "20261127-0415")).isEqualTo(b);
    assertThat(RunDirectories.find(ws, "20261127-040000-train-ab13")).isNull();
    assertThatThrownBy(() -> RunDirectories.find(ws, "20261127"))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("20261127")
        .hasMessageContaining("fits 2 runs");
    assertThatThrownBy(() -> RunDirectories.find(ws, "../x"))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("not a run id");
  }

  @Test
  void aWorkspaceWithoutRunsKnowsNoRun() {
    assertThat(RunDirectories.find(ws, "20261127-040000-train-ab12")).isNull();
  }
}
