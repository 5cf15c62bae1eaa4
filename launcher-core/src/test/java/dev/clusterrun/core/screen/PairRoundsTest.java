package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.screen.PairRounds.Pair;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PairRoundsTest {
  @Test
  void everySizeFrom2To64_disjointRounds_everyNodeInTwoPairs_atMostThreeRounds() {
    for (int n = 2; n <= 64; n++) {
      List<List<Pair>> rounds = PairRounds.rounds(n);
      Map<Integer, Integer> pairsOf = new HashMap<>();
      Set<Set<Integer>> seen = new HashSet<>();
      for (List<Pair> round : rounds) {
        Set<Integer> busy = new HashSet<>();
        for (Pair p : round) {
          assertThat(busy.add(p.a())).as("n=%d: %s busy twice in a round", n, p.a()).isTrue();
          assertThat(busy.add(p.b())).as("n=%d: %s busy twice in a round", n, p.b()).isTrue();
          assertThat(p.a()).isNotEqualTo(p.b());
          assertThat(seen.add(Set.of(p.a(), p.b()))).as("n=%d: pair twice", n).isTrue();
          pairsOf.merge(p.a(), 1, Integer::sum);
          pairsOf.merge(p.b(), 1, Integer::sum);
        }
      }
      assertThat(pairsOf).as("n=%d", n).hasSize(n);
      int expected = n == 2 ? 1 : 2;
      assertThat(pairsOf.values()).as("n=%d", n).allMatch(c -> c == expected);
      assertThat(rounds).as("n=%d", n).hasSize(n == 2 ? 1 : n % 2 == 0 ? 2 : 3);
    }
  }

  @Test
  void sixtyFourNodesTakeTwoRoundsLikeEight() {
    assertThat(PairRounds.rounds(64)).hasSize(2);
    assertThat(PairRounds.rounds(8)).hasSize(2);
    assertThat(PairRounds.rounds(64).get(0)).hasSize(32);
  }

  @Test
  void theRoundsDoNotGrowWithTheCluster_8_64_65_and1001Nodes() {
    // An even ring splits in two rounds; an odd ring needs a third (an odd cycle cannot be
    // coloured with two), for 9 nodes as for 1001.
    int eight = PairRounds.rounds(8).size();
    assertThat(PairRounds.rounds(64)).hasSize(eight);
    assertThat(PairRounds.rounds(1000)).hasSize(eight);
    assertThat(eight).isEqualTo(2);
    int nine = PairRounds.rounds(9).size();
    assertThat(PairRounds.rounds(65)).hasSize(nine);
    assertThat(PairRounds.rounds(1001)).hasSize(nine);
    assertThat(nine).isEqualTo(3);
  }

  @Test
  void theRingsEvenPairsThenItsOddPairs() {
    assertThat(PairRounds.rounds(4))
        .containsExactly(
            List.of(new Pair(0, 1), new Pair(2, 3)), List.of(new Pair(1, 2), new Pair(3, 0)));
    assertThat(PairRounds.rounds(3))
        .containsExactly(List.of(new Pair(0, 1)), List.of(new Pair(1, 2)), List.of(new Pair(2, 0)));
  }

  @Test
  void theProgramReadsTheRoundsAsOneWord() {
    assertThat(PairRounds.argument(PairRounds.rounds(4))).isEqualTo("0-1,2-3/1-2,3-0");
    assertThat(PairRounds.argument(PairRounds.rounds(3))).isEqualTo("0-1/1-2/2-0");
    assertThat(PairRounds.argument(List.of()))
        .as("no pair: a second look at nodes alone")
        .isEqualTo("-");
  }
}
