package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DetachTest {
  @Test
  void theBackgroundClusterrunGetsTheSameWordsButTheFirstDetachOption() {
    assertThat(
            Detach.withoutDetach(
                List.of("run", "--detach", "--nodes", "h", "--", "prog", "--detach")))
        .containsExactly("run", "--nodes", "h", "--", "prog", "--detach");
    assertThat(Detach.withoutDetach(List.of("run", "--nodes", "h", "--", "--detach")))
        .containsExactly("run", "--nodes", "h", "--", "--detach");
  }

  @Test
  void onlyAChildOfTheNamedForegroundIsTheBackgroundClusterrun() {
    String parent = Long.toString(ProcessHandle.current().parent().orElseThrow().pid());
    assertThat(Detach.isChild(Map.of(Detach.PARENT_VAR, parent))).isTrue();
    assertThat(Detach.isChild(Map.of(Detach.PARENT_VAR, "1"))).isFalse();
    assertThat(Detach.isChild(Map.of())).isFalse();
  }
}
