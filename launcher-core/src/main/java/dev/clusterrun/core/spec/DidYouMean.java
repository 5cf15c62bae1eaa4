package dev.clusterrun.core.spec;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Suggests the nearest known word for a misspelt one: a key in a job spec or a hostfile, an enum
 * value. Words equal apart from case and {@code _}/{@code -} win outright; otherwise the nearest by
 * optimal-string-alignment (Damerau-Levenshtein) distance, if it is close enough to be a typo.
 */
public final class DidYouMean {
  private DidYouMean() {}

  /**
   * @param word what was written
   * @param candidates the words valid here, in order of preference for ties
   * @return the suggestion, or empty when nothing is close
   */
  public static Optional<String> suggest(String word, Collection<String> candidates) {
    String w = normalize(word);
    for (String c : candidates) {
      if (normalize(c).equals(w)) {
        return Optional.of(c);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(w, normalize(c));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    int allowed = w.length() <= 3 ? 1 : w.length() <= 6 ? 2 : 3;
    if (best != null && bestDistance <= allowed && bestDistance < w.length()) {
      return Optional.of(best);
    }
    // A cut-short or lengthened known word: "env-from" for "env-from-host".
    for (String c : candidates) {
      String n = normalize(c);
      if (w.length() >= 4 && (n.startsWith(w) || w.startsWith(n)) && n.length() >= 4) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** {@code "; did you mean 'x'?"}, or the empty string when nothing is close. */
  public static String hint(String word, Collection<String> candidates) {
    return suggest(word, candidates).map(s -> "; did you mean '" + s + "'?").orElse("");
  }

  private static String normalize(String s) {
    return s.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
  static int distance(String a, String b) {
    int n = a.length();
    int m = b.length();
    int[][] d = new int[n + 1][m + 1];
    for (int i = 0; i <= n; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= m; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= m; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[n][m];
  }
}
