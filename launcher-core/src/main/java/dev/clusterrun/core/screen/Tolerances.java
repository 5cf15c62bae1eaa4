package dev.clusterrun.core.screen;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.screen.ScreenJudge.Metric;
import dev.clusterrun.core.spec.DidYouMean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How far a figure may be off before it is slow, as a fraction (0.10 for 10 %): one for every
 * metric, and one per metric where {@code --tolerance METRIC=PERCENT} gives it.
 *
 * @param all the tolerance of the metrics not named in {@code per}
 * @param per by metric, where it differs
 */
public record Tolerances(double all, Map<Metric, Double> per) {
  /** {@code --tolerance}'s default: 10 % for every metric. */
  public static final Tolerances DEFAULT = new Tolerances(0.10, Map.of());

  public Tolerances {
    per = per.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(per));
  }

  /** The tolerance of {@code m}. */
  public double of(Metric m) {
    return per.getOrDefault(m, all);
  }

  /**
   * Reads {@code --tolerance}'s values, each a comma-separated list of {@code PERCENT} (every
   * metric) and {@code METRIC=PERCENT} (that metric: compute, memory, bandwidth or latency); a
   * percentage is {@code 10%} or {@code 10}, above 0 and below 100. A later value for the same
   * metric wins. No value: {@link #DEFAULT}.
   */
  public static Tolerances parse(List<String> values) {
    double all = DEFAULT.all();
    Map<Metric, Double> per = new EnumMap<>(Metric.class);
    for (String value : values == null ? List.<String>of() : values) {
      for (String item : value.split(",", -1)) {
        int eq = item.indexOf('=');
        if (eq < 0) {
          all = percent(item);
        } else {
          per.put(metric(item.substring(0, eq).strip(), item), percent(item.substring(eq + 1)));
        }
      }
    }
    return new Tolerances(all, per);
  }

  /** {@code 10%} or {@code 10} as 0.10; bad input naming {@code --tolerance} otherwise. */
  public static double percent(String text) {
    String t = text == null ? "" : text.strip();
    if (t.endsWith("%")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    double pct;
    try {
      pct = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      pct = Double.NaN;
    }
    if (!(pct > 0 && pct < 100)) {
      throw new BadInputException(
          "--tolerance",
          "'"
              + text
              + "' is not a percentage above 0 and below 100 (e.g. 10%, or bandwidth=15% for one"
              + " metric)");
    }
    return pct / 100;
  }

  /** The metric a {@code --tolerance} or references file names by its label or its log key. */
  static Metric metricNamed(String name) {
    for (Metric m : Metric.values()) {
      if (m.label().equals(name.toLowerCase(Locale.ROOT)) || m.key().equals(name)) {
        return m;
      }
    }
    return null;
  }

  /** The metrics' labels: {@code compute, memory, bandwidth, latency}. */
  static List<String> labels() {
    return Arrays.stream(Metric.values()).map(Metric::label).toList();
  }

  private static Metric metric(String name, String item) {
    Metric m = metricNamed(name);
    if (m == null) {
      List<String> known = new ArrayList<>(labels());
      throw new BadInputException(
          "--tolerance",
          "'"
              + item
              + "': '"
              + name
              + "' is not a metric (one of "
              + String.join(", ", known)
              + ")"
              + DidYouMean.hint(name, known));
    }
    return m;
  }
}
