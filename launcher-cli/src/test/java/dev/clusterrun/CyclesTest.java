package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cycle finder {@code ArchitectureTest} judges launch/ with finds what it must. */
class CyclesTest {
  @Test
  void aGraphThatGoesOneWayHasNone() {
    assertThat(Cycles.of(Map.of("a", Set.of("b", "c"), "b", Set.of("c"), "c", Set.of()))).isEmpty();
  }

  @Test
  void everyCycleIsFoundWithAllItsMembers() {
    assertThat(
            Cycles.of(
                Map.of(
                    "a", Set.of("b"),
                    "b", Set.of("c"),
                    "c", Set.of("a", "d"),
                    "d", Set.of("e"),
                    "e", Set.of("d"),
                    "f", Set.of("a"))))
        .containsExactlyInAnyOrder(Set.of("a", "b", "c"), Set.of("d", "e"));
  }

  @Test
  void aNameUsedButNotListedIsNoCycle() {
    assertThat(Cycles.of(Map.of("a", Set.of("x")))).isEmpty();
  }
}
