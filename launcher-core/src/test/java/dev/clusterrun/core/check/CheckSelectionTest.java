package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckSelectionTest {
  @Test
  void onlyThenSkip() {
    CheckSelection s = CheckSelection.parse(List.of("hook", "enroot,uid-gid"), List.of("uid-gid"));
    assertThat(s.selected()).containsExactlyInAnyOrder(CheckId.HOOK, CheckId.ENROOT);
    assertThat(CheckSelection.parse(List.of(), List.of("gpu-slots")).selected())
        .hasSize(CheckId.values().length - 1)
        .doesNotContain(CheckId.GPU_SLOTS);
  }

  @Test
  void unknownIdOffersTheClosest() {
    assertThatThrownBy(() -> CheckSelection.parse(List.of("runtme-path"), List.of()))
        .isInstanceOf(BadInputException.class)
        .satisfies(
            e -> {
              BadInputException b = (BadInputException) e;
              assertThat(b.subject()).isEqualTo("--only");
              assertThat(b.problem())
                  .startsWith("unknown check 'runtme-path'; did you mean 'runtime-path'?")
                  .contains("known: reachable, enroot,");
            });
    assertThatThrownBy(() -> CheckSelection.parse(List.of(), List.of("zzzzzzzzzzzzzz")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--skip: unknown check 'zzzzzzzzzzzzzz' (known:");
  }

  @Test
  void idsAreStable() {
    assertThat(CheckId.ids())
        .containsExactly(
            "reachable",
            "enroot",
            "enroot-version",
            "runtime-path",
            "cache-path",
            "data-path",
            "data-path-shared",
            "mount-home",
            "hook",
            "launch-agent",
            "dropin",
            "container",
            "image",
            "squashfuse",
            "hostname-unique",
            "network",
            "uid-gid",
            "ssh-from-head",
            "config-identical",
            "gpu-slots");
  }

  @Test
  void aSelectionThatLeavesNoCheckIsBadInputNotAPass() {
    assertThatThrownBy(() -> CheckSelection.parse(List.of("hook"), List.of("hook")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--skip: skips every check --only selects (hook); no check would run");
    assertThatThrownBy(() -> CheckSelection.parse(List.of(), CheckId.ids()))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--skip: skips every check; no check would run");
  }
}
