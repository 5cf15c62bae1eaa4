package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkspaceDirTest {
  @Test
  void theWorkspaceIsTheFlagThenTheEnvironmentThenTheHomes() {
    assertThat(new WorkspaceDir(Path.of("/w"), Map.of("CLUSTERRUN_WORKSPACE", "/e")).path())
        .isEqualTo(Path.of("/w"));
    assertThat(new WorkspaceDir(null, Map.of("CLUSTERRUN_WORKSPACE", "/e", "HOME", "/h")).path())
        .isEqualTo(Path.of("/e"));
    assertThat(new WorkspaceDir(null, Map.of("HOME", "/h")).path())
        .isEqualTo(Path.of("/h/clusterrun"));
  }

  @Test
  void aJobFilesWorkspaceComesAfterTheFlagAndTheEnvironmentAndBeforeTheHomes() {
    Map<String, String> env = Map.of("CLUSTERRUN_WORKSPACE", "/e", "HOME", "/h");
    assertThat(new WorkspaceDir(Path.of("/w"), env).path("/f")).isEqualTo(Path.of("/w"));
    assertThat(new WorkspaceDir(null, env).path("/f")).isEqualTo(Path.of("/e"));
    assertThat(new WorkspaceDir(null, Map.of("HOME", "/h")).path("/f")).isEqualTo(Path.of("/f"));
    assertThat(new WorkspaceDir(null, Map.of("HOME", "/h")).path(null))
        .isEqualTo(Path.of("/h/clusterrun"));
  }
}
