package dev.clusterrun.core.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * pdsh/clush host ranges: {@code node[01-16]}, {@code node[1-3,7,10-11]}, {@code r[1-2]n[1-3]}.
 * Numbers keep the zero padding of a range's lower bound ({@code [08-10]} gives {@code 08 09 10});
 * several bracket groups expand leftmost-major ({@code r1n1 r1n2 … r2n1 …}).
 */
public final class HostRanges {
  /** No pattern may expand to more names than this. */
  public static final int MAX_NAMES = 100_000;

  private HostRanges() {}

  /** Whether {@code text} has a bracket group to expand. */
  public static boolean hasRange(String text) {
    return text.indexOf('[') >= 0 || text.indexOf(']') >= 0;
  }

  /**
   * Expands every bracket group, in order.
   *
   * @throws IllegalArgumentException with a problem fit to follow the quoted pattern
   */
  public static List<String> expand(String pattern) {
    List<List<String>> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == ']') {
        throw new IllegalArgumentException("']' without a matching '['");
      }
      if (c != '[') {
        literal.append(c);
        i++;
        continue;
      }
      int close = pattern.indexOf(']', i + 1);
      int nested = pattern.indexOf('[', i + 1);
      if (close < 0) {
        throw new IllegalArgumentException("'[' is never closed");
      }
      if (nested >= 0 && nested < close) {
        throw new IllegalArgumentException("brackets cannot nest");
      }
      parts.add(List.of(literal.toString()));
      literal.setLength(0);
      parts.add(group(pattern.substring(i + 1, close)));
      i = close + 1;
    }
    parts.add(List.of(literal.toString()));

    long count = 1;
    for (List<String> p : parts) {
      count *= p.size();
      if (count > MAX_NAMES) {
        throw new IllegalArgumentException("expands to more than " + MAX_NAMES + " names");
      }
    }
    List<String> out = new ArrayList<>((int) count);
    out.add("");
    for (List<String> p : parts) {
      List<String> next = new ArrayList<>(out.size() * p.size());
      for (String prefix : out) {
        for (String s : p) {
          next.add(prefix + s);
        }
      }
      out = next;
    }
    return out;
  }

  private static List<String> group(String body) {
    if (body.isEmpty()) {
      throw new IllegalArgumentException("empty range '[]'");
    }
    List<String> out = new ArrayList<>();
    for (String item : body.split(",", -1)) {
      if (item.isEmpty()) {
        throw new IllegalArgumentException("empty item in range '[" + body + "]'");
      }
      int dash = item.indexOf('-');
      if (dash < 0) {
        number(item, body);
        out.add(item);
        continue;
      }
      String lo = item.substring(0, dash);
      String hi = item.substring(dash + 1);
      if (lo.isEmpty() || hi.isEmpty()) {
        throw new IllegalArgumentException(
            "'" + item + "' needs a number on both sides of '-', as in 1-16");
      }
      long a = number(lo, body);
      long b = number(hi, body);
      if (a > b) {
        throw new IllegalArgumentException("range " + item + " goes backwards");
      }
      if (b - a + 1 > MAX_NAMES) {
        throw new IllegalArgumentException("expands to more than " + MAX_NAMES + " names");
      }
      int width = lo.length() > 1 && lo.charAt(0) == '0' ? lo.length() : 0;
      for (long n = a; n <= b; n++) {
        String s = Long.toString(n);
        out.add(s.length() < width ? "0".repeat(width - s.length()) + s : s);
      }
    }
    return out;
  }

  private static long number(String s, String body) {
    if (s.length() > 9 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      throw new IllegalArgumentException(
          "'"
              + s
              + "' in '["
              + body
              + "]' is not a number; a range holds numbers and spans, as in [01-16] or [1-3,7]");
    }
    return Long.parseLong(s);
  }
}
