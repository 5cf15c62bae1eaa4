package dev.clusterrun.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Checks host names (RFC 1123) and IPv4/IPv6 literals as they may appear in a hostfile. */
public final class HostName {
  private HostName() {}

  /** What a valid host text is. */
  public enum Kind {
    NAME,
    IPV4,
    IPV6
  }

  /**
   * Classifies and checks {@code text}: an IPv6 literal if it has a {@code :}, an IPv4 literal if
   * it has only digits and dots, otherwise a host name of dot-separated RFC 1123 labels.
   *
   * @throws IllegalArgumentException with a message fit to follow a subject
   */
  public static Kind validate(String text) {
    if (text.indexOf(':') >= 0) {
      if (!isIpv6(text)) {
        throw new IllegalArgumentException("'" + text + "' is not a valid IPv6 address");
      }
      return Kind.IPV6;
    }
    if (text.chars().allMatch(c -> c == '.' || c >= '0' && c <= '9')) {
      if (!isIpv4(text)) {
        throw new IllegalArgumentException("'" + text + "' is not a valid IPv4 address");
      }
      return Kind.IPV4;
    }
    String why = nameProblem(text);
    if (why != null) {
      throw new IllegalArgumentException("'" + text + "' is not a valid host name: " + why);
    }
    return Kind.NAME;
  }

  /**
   * A key under which two spellings of one host compare equal: host names ignore case, IPv6
   * literals are compared by value ({@code ::1} equals {@code 0:0:0:0:0:0:0:1}).
   */
  public static String identity(String validText) {
    if (validText.indexOf(':') >= 0) {
      int[] groups = ipv6Groups(validText);
      if (groups != null) {
        StringBuilder b = new StringBuilder("ipv6:");
        for (int g : groups) {
          b.append(Integer.toHexString(g)).append(':');
        }
        return b.toString();
      }
    }
    return validText.toLowerCase(Locale.ROOT);
  }

  private static String nameProblem(String s) {
    if (s.length() > 253) {
      return "longer than 253 characters";
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '.');
      if (!ok) {
        return "'"
            + c
            + "' is not allowed (RFC 1123: letters, digits and '-' in labels separated by '.')";
      }
    }
    for (String label : s.split("\\.", -1)) {
      if (label.isEmpty()) {
        return "it has an empty label (a leading, trailing or doubled '.')";
      }
      if (label.length() > 63) {
        return "label '" + label + "' is longer than 63 characters";
      }
      if (label.startsWith("-") || label.endsWith("-")) {
        return "label '" + label + "' starts or ends with '-'";
      }
    }
    return null;
  }

  static boolean isIpv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || p.length() > 1 && p.charAt(0) == '0') {
        return false;
      }
      if (Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  static boolean isIpv6(String s) {
    return ipv6Groups(s) != null;
  }

  /** The eight 16-bit groups of an IPv6 literal, or null when it is not one. */
  private static int[] ipv6Groups(String s) {
    int dc = s.indexOf("::");
    if (dc >= 0 && s.indexOf("::", dc + 1) >= 0) {
      return null;
    }
    List<Integer> head = new ArrayList<>();
    List<Integer> tail = new ArrayList<>();
    if (dc >= 0) {
      if (!groups(s.substring(0, dc), head, false) || !groups(s.substring(dc + 2), tail, true)) {
        return null;
      }
      if (head.size() + tail.size() > 7) {
        return null;
      }
    } else {
      if (!groups(s, head, true) || head.size() != 8) {
        return null;
      }
    }
    int[] out = new int[8];
    for (int i = 0; i < head.size(); i++) {
      out[i] = head.get(i);
    }
    for (int i = 0; i < tail.size(); i++) {
      out[8 - tail.size() + i] = tail.get(i);
    }
    return out;
  }

  private static boolean groups(String part, List<Integer> out, boolean ipv4Tail) {
    if (part.isEmpty()) {
      return true;
    }
    String[] gs = part.split(":", -1);
    for (int i = 0; i < gs.length; i++) {
      String g = gs[i];
      if (ipv4Tail && i == gs.length - 1 && g.indexOf('.') >= 0) {
        if (!isIpv4(g)) {
          return false;
        }
        String[] o = g.split("\\.");
        out.add(Integer.parseInt(o[0]) << 8 | Integer.parseInt(o[1]));
        out.add(Integer.parseInt(o[2]) << 8 | Integer.parseInt(o[3]));
        continue;
      }
      if (g.isEmpty() || g.length() > 4) {
        return false;
      }
      for (int k = 0; k < g.length(); k++) {
        char c = g.charAt(k);
        if (c >= 128 || Character.digit(c, 16) < 0) {
          return false;
        }
      }
      out.add(Integer.parseInt(g, 16));
    }
    return true;
  }
}
