package dev.clusterrun.core.check;

import java.time.Duration;
import java.util.function.Supplier;

/** A value (null when there is none) and how long it took to get. */
record Timed<T>(T value, Duration took) {
  static <T> Timed<T> none() {
    return new Timed<>(null, Duration.ZERO);
  }

  /** Runs {@code get}; a failure yields no value. */
  static <T> Timed<T> of(Supplier<T> get) {
    long t = System.nanoTime();
    T v;
    try {
      v = get.get();
    } catch (RuntimeException e) {
      v = null;
    }
    return new Timed<>(v, since(t));
  }

  /** The time since {@code start} ({@link System#nanoTime}). */
  static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
