package dev.clusterrun.core.screen;

import java.util.ArrayList;
import java.util.List;

/**
 * The pairs of a screen, in rounds of disjoint pairs: the ring of the hostfile's nodes (0-1, 1-2,
 * …, last-0), its even pairs in one round and its odd pairs in the next, so every node is in two
 * pairs and the whole cluster takes two rounds whatever its size. An odd ring cannot be split in
 * two: its closing pair (last-0) gets a third round. Two nodes make one pair, once.
 */
public final class PairRounds {
  private PairRounds() {}

  /** Two nodes by their index in the hostfile. */
  public record Pair(int a, int b) {}

  /** The rounds for {@code n} nodes ({@code n >= 2}). */
  public static List<List<Pair>> rounds(int n) {
    if (n < 2) {
      throw new IllegalArgumentException("a screen needs two nodes, not " + n);
    }
    if (n == 2) {
      return List.of(List.of(new Pair(0, 1)));
    }
    List<Pair> even = new ArrayList<>();
    List<Pair> odd = new ArrayList<>();
    for (int i = 0; i + 1 < n; i++) {
      (i % 2 == 0 ? even : odd).add(new Pair(i, i + 1));
    }
    Pair closing = new Pair(n - 1, 0);
    if (n % 2 == 0) {
      odd.add(closing);
      return List.of(List.copyOf(even), List.copyOf(odd));
    }
    return List.of(List.copyOf(even), List.copyOf(odd), List.of(closing));
  }

  /**
   * The rounds as the screen program reads them: {@code 0-1,2-3/1-2,3-0}; {@code -} for no pair (a
   * second look at nodes' own figures only).
   */
  public static String argument(List<List<Pair>> rounds) {
    if (rounds.isEmpty()) {
      return "-";
    }
    List<String> out = new ArrayList<>();
    for (List<Pair> round : rounds) {
      out.add(String.join(",", round.stream().map(p -> p.a() + "-" + p.b()).toList()));
    }
    return String.join("/", out);
  }
}
