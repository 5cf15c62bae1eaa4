package dev.clusterrun.core.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DetachedTest {
  @Test
  void theBackgroundClusterrunGetsTheSameWordsButTheFirstDetachOption() {
    assertThat(
            Detached.withoutDetach(
                List.of("run", "--detach", "--nodes", "h", "--", "prog", "--detach")))
        .containsExactly("run", "--nodes", "h", "--", "prog", "--detach");
    assertThat(Detached.withoutDetach(List.of("run", "--nodes", "h", "--", "--detach")))
        .containsExactly("run", "--nodes", "h", "--", "--detach");
  }

  @Test
  void onlyAChildOfTheNamedForegroundIsTheBackgroundClusterrun() {
    String parent = Long.toString(ProcessHandle.current().parent().orElseThrow().pid());
    assertThat(Detached.isChild(Map.of(Detached.PARENT_VAR, parent))).isTrue();
    assertThat(Detached.isChild(Map.of(Detached.PARENT_VAR, "1"))).isFalse();
    assertThat(Detached.isChild(Map.of())).isFalse();
  }

  @Test
  void theForegroundNamesTheRunItsPidAndHowToFollowIt() {
    assertThat(Detached.startedNote("20261127-071500-job-ab12", 4242, "/ws/runs/x"))
        .isEqualTo(
            "run 20261127-071500-job-ab12 started in the background (pid 4242); run directory"
                + " /ws/runs/x; follow it with: clusterrun logs -f 20261127-071500-job-ab12");
  }

  @Test
  void theBackgroundsOutputGoesWhereItIsSwitchedTo() throws Exception {
    java.io.ByteArrayOutputStream first = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream then = new java.io.ByteArrayOutputStream();
    Detached.Switch s = new Detached.Switch(first);
    s.write("a".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    s.to(then);
    s.write('b');
    assertThat(first.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("a");
    assertThat(then.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("b");
  }
}
