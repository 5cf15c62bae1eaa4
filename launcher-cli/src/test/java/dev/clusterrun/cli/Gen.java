package dev.clusterrun.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * A generator of test values from a seeded {@link Random}: the same seed gives the same values, so
 * a failure found once can be replayed ({@link Tries}).
 */
@FunctionalInterface
interface Gen<T> {
  T next(Random r);

  default <U> Gen<U> map(Function<? super T, ? extends U> f) {
    return r -> f.apply(next(r));
  }

  default <U> Gen<U> flatMap(Function<? super T, Gen<U>> f) {
    return r -> f.apply(next(r)).next(r);
  }

  /** Between {@code min} and {@code max} values, inclusive. */
  default Gen<List<T>> list(int min, int max) {
    return r -> {
      int n = min + r.nextInt(max - min + 1);
      List<T> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(next(r));
      }
      return out;
    };
  }

  static <T> Gen<T> just(T value) {
    return r -> value;
  }

  @SafeVarargs
  static <T> Gen<T> of(T... values) {
    return r -> values[r.nextInt(values.length)];
  }

  static <T> Gen<T> of(List<T> values) {
    return r -> values.get(r.nextInt(values.size()));
  }

  @SafeVarargs
  static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    return r -> gens[r.nextInt(gens.length)].next(r);
  }

  /** {@code a} with weight {@code wa}, else {@code b}. */
  static <T> Gen<T> weighted(int wa, Gen<? extends T> a, int wb, Gen<? extends T> b) {
    return r -> r.nextInt(wa + wb) < wa ? a.next(r) : b.next(r);
  }

  /** Text of {@code min}…{@code max} characters taken from {@code chars}. */
  static Gen<String> chars(String chars, int min, int max) {
    return r -> {
      int n = min + r.nextInt(max - min + 1);
      StringBuilder b = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        b.append(chars.charAt(r.nextInt(chars.length())));
      }
      return b.toString();
    };
  }

  static <A, B, R> Gen<R> zip(Gen<A> a, Gen<B> b, java.util.function.BiFunction<A, B, R> f) {
    return r -> f.apply(a.next(r), b.next(r));
  }

  interface F3<A, B, C, R> {
    R apply(A a, B b, C c);
  }

  static <A, B, C, R> Gen<R> zip(Gen<A> a, Gen<B> b, Gen<C> c, F3<A, B, C, R> f) {
    return r -> f.apply(a.next(r), b.next(r), c.next(r));
  }

  interface F4<A, B, C, D, R> {
    R apply(A a, B b, C c, D d);
  }

  static <A, B, C, D, R> Gen<R> zip(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, F4<A, B, C, D, R> f) {
    return r -> f.apply(a.next(r), b.next(r), c.next(r), d.next(r));
  }
}
