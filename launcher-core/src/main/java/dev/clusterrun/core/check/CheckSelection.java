package dev.clusterrun.core.check;

import dev.clusterrun.core.BadInputException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Which checks to run: all, or {@code --only} ones, minus {@code --skip} ones. */
public record CheckSelection(Set<CheckId> selected) {
  public CheckSelection {
    selected = selected.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(selected));
  }

  public static CheckSelection all() {
    return new CheckSelection(EnumSet.allOf(CheckId.class));
  }

  /**
   * Parses the ids given to {@code --only} and {@code --skip} (each entry may itself be a comma
   * separated list).
   *
   * @throws BadInputException naming the option and offering the closest id for an unknown one
   */
  public static CheckSelection parse(Collection<String> only, Collection<String> skip) {
    EnumSet<CheckId> chosen =
        only == null || only.isEmpty()
            ? EnumSet.allOf(CheckId.class)
            : EnumSet.copyOf(ids("--only", only));
    EnumSet<CheckId> before = EnumSet.copyOf(chosen);
    if (skip != null && !skip.isEmpty()) {
      chosen.removeAll(ids("--skip", skip));
    }
    if (chosen.isEmpty()) {
      // An empty selection would pass without looking at anything: never a pass.
      throw new BadInputException(
          "--skip",
          (only == null || only.isEmpty()
                  ? "skips every check"
                  : "skips every check --only selects ("
                      + String.join(", ", before.stream().map(CheckId::id).toList())
                      + ")")
              + "; no check would run");
    }
    return new CheckSelection(chosen);
  }

  private static List<CheckId> ids(String option, Collection<String> words) {
    List<CheckId> out = new ArrayList<>();
    for (String w : words) {
      for (String id : w.split(",")) {
        String t = id.strip();
        if (t.isEmpty()) {
          continue;
        }
        out.add(CheckId.byId(t).orElseThrow(() -> new BadInputException(option, unknown(t))));
      }
    }
    if (out.isEmpty()) {
      throw new BadInputException(option, "no check named; known checks: " + known());
    }
    return out;
  }

  private static String unknown(String id) {
    String best = null;
    int bestDist = Integer.MAX_VALUE;
    for (String k : CheckId.ids()) {
      int d = distance(id.toLowerCase(), k);
      if (d < bestDist) {
        bestDist = d;
        best = k;
      }
    }
    String hint = bestDist <= Math.max(2, id.length() / 3) ? "; did you mean '" + best + "'?" : "";
    return "unknown check '" + id + "'" + hint + " (known: " + known() + ")";
  }

  private static String known() {
    return String.join(", ", CheckId.ids());
  }

  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  public boolean includes(CheckId id) {
    return selected.contains(id);
  }
}
