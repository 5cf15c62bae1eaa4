package dev.clusterrun.core.image;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code WWW-Authenticate} challenge: its scheme ({@code Bearer}, {@code Basic}) and parameters
 * ({@code realm}, {@code service}, {@code scope}, …), quoted or not.
 */
record Challenge(String scheme, Map<String, String> params) {
  /** Parses the header's first challenge; null when there is none. */
  static Challenge parse(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String h = header.strip();
    int sp = h.indexOf(' ');
    String scheme = sp < 0 ? h : h.substring(0, sp);
    Map<String, String> params = new LinkedHashMap<>();
    int i = sp < 0 ? h.length() : sp + 1;
    while (i < h.length()) {
      while (i < h.length() && (h.charAt(i) == ' ' || h.charAt(i) == ',')) {
        i++;
      }
      int eq = h.indexOf('=', i);
      if (eq < 0) {
        break;
      }
      String key = h.substring(i, eq).strip().toLowerCase(Locale.ROOT);
      i = eq + 1;
      StringBuilder v = new StringBuilder();
      if (i < h.length() && h.charAt(i) == '"') {
        i++;
        while (i < h.length() && h.charAt(i) != '"') {
          if (h.charAt(i) == '\\' && i + 1 < h.length()) {
            i++;
          }
          v.append(h.charAt(i++));
        }
        i++;
      } else {
        while (i < h.length() && h.charAt(i) != ',') {
          v.append(h.charAt(i++));
        }
      }
      params.put(key, v.toString().strip());
    }
    return new Challenge(scheme, params);
  }

  boolean isBearer() {
    return scheme.equalsIgnoreCase("Bearer");
  }

  boolean isBasic() {
    return scheme.equalsIgnoreCase("Basic");
  }

  String realm() {
    return params.get("realm");
  }
}
