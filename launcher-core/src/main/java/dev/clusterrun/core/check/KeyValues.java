package dev.clusterrun.core.check;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code key=value} output of clusterrun's node scripts: lines between a begin and an end
 * marker, values unescaped ({@code \\} and {@code \n}); lines that are not {@code key=value} with a
 * well-formed key (MOTD text, shell noise) are ignored.
 */
final class KeyValues {
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.\\-]+");

  /** Parsed pairs, and whether the end marker was seen. */
  record Parsed(Map<String, String> values, boolean begun, boolean complete) {}

  private KeyValues() {}

  static Parsed parse(String output, String begin, String end) {
    Map<String, String> values = new LinkedHashMap<>();
    boolean inside = begin == null;
    boolean begun = begin == null;
    boolean complete = false;
    if (output == null) {
      return new Parsed(values, false, false);
    }
    for (String line : output.split("\n", -1)) {
      if (!inside) {
        if (line.equals(begin)) {
          inside = true;
          begun = true;
        }
        continue;
      }
      if (end != null && line.equals(end)) {
        complete = true;
        break;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = line.substring(0, eq);
      if (!KEY.matcher(key).matches()) {
        continue;
      }
      values.put(key, unescape(line.substring(eq + 1)));
    }
    return new Parsed(values, begun, complete);
  }

  static String unescape(String v) {
    if (v.indexOf('\\') < 0) {
      return v;
    }
    StringBuilder b = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == '\\' && i + 1 < v.length()) {
        char n = v.charAt(++i);
        b.append(n == 'n' ? '\n' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
