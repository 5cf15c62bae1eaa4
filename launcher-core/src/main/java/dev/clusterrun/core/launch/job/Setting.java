package dev.clusterrun.core.launch.job;

/**
 * A resolved value and where it came from.
 *
 * @param origin detail of the source: the flag name, the variable name, {@code job.yaml}
 */
public record Setting<T>(T value, Source source, String origin) {
  public static <T> Setting<T> of(T value, Source source, String origin) {
    return new Setting<>(value, source, origin);
  }

  public boolean isSet() {
    return value != null;
  }
}
