package dev.clusterrun.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Hostile text: shell quotes and expansions, separators clusterrun or its tools split on, control
 * and invisible characters, unicode that changes how text looks or is encoded, very long text and
 * leading option dashes, mixed with ordinary letters so that some of it is also valid.
 *
 * <p>A value that a broken quote would run only ever makes a file named {@code MARKER} or {@code
 * MARKER2} in the shell's own directory (see {@link RealShell}).
 */
final class HostileStrings {
  private HostileStrings() {}

  /** Pieces that mean something to a shell, to enroot, to Open MPI or to clusterrun. */
  static final List<String> SPECIAL =
      List.of(
          "'",
          "\"",
          "`",
          "$(touch MARKER)",
          "`touch MARKER`",
          "${IFS}",
          "$HOME",
          "$((1+1))",
          ";touch MARKER",
          "&&touch MARKER",
          "|touch MARKER",
          "||touch MARKER",
          "&",
          "(",
          ")",
          ">MARKER2",
          "<",
          "\\",
          "\\\"",
          "'\\''",
          "\\$",
          "!",
          "-",
          "--",
          "=",
          ",",
          ":",
          "+",
          "#",
          "*",
          "?",
          "~",
          "..",
          "/",
          "%",
          "@",
          "{",
          "}",
          "[",
          "]",
          "^",
          " ",
          "  ",
          "\t",
          "\n",
          "\r",
          "\r\n",
          "\f",
          "\u000B",
          "\u001B[31m",
          "\u0007",
          "\u007F",
          "\u0085",
          "\u00A0",
          "\u2028",
          "\u3000",
          "\u200B",
          "\u200F",
          "\u202E",
          "\u2066",
          "\uFEFF",
          "e\u0301",
          "\uD83D\uDE00",
          "é",
          "Ω",
          "orted",
          "prted",
          "OMPI_MCA_x=1",
          "ENROOT_",
          "--env",
          "-x",
          ":/x",
          "/etc/passwd",
          "\"x\"",
          "'x'");

  /** Characters no argv entry or environment value can hold; only a job file can spell them. */
  static final List<String> FILE_ONLY = List.of("\u0000", "\uD800", "\uDFFF", "a\uDC00b");

  private static final Gen<String> PLAIN = Gen.chars("abcXYZ019_.-/", 1, 6);

  /**
   * Hostile text for an argv entry or an environment value: no NUL, no unpaired surrogate.
   *
   * @param maxPieces at most this many pieces, each special or plain
   */
  static Gen<String> text(int maxPieces) {
    Gen<String> piece = Gen.weighted(3, Gen.of(SPECIAL), 2, PLAIN);
    Gen<String> mixed = piece.list(0, maxPieces).map(HostileStrings::join);
    return Gen.weighted(20, mixed, 1, longText());
  }

  /** Hostile text that may also hold what only a job file can spell (NUL, lone surrogates). */
  static Gen<String> fileText(int maxPieces) {
    Gen<String> fileOnly =
        r -> text(maxPieces).next(r) + Gen.of(FILE_ONLY).next(r) + text(2).next(r);
    return Gen.weighted(8, text(maxPieces), 1, fileOnly);
  }

  /**
   * Very long text: past what a path may be (4096 bytes), past what clusterrun lets the launch
   * agent be, and past what one argv entry may be (128 KiB).
   */
  static Gen<String> longText() {
    return r -> {
      String p = Gen.of("a", "/a", "é", "$(touch MARKER)", "x y", "\uD83D\uDE00").next(r);
      int n = Gen.of(300, 5_000, 70_000, 140_000).next(r);
      return p.repeat(Math.max(1, n / p.length()));
    };
  }

  private static String join(List<String> parts) {
    StringBuilder b = new StringBuilder();
    for (String p : parts) {
      b.append(p);
    }
    return b.toString();
  }

  /** Whether {@code s} is made only of {@code allowed} characters (and is not empty). */
  static boolean only(String s, String allowed) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (allowed.indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  /** How a value is written in the job file. */
  enum Style {
    DOUBLE_QUOTED,
    SINGLE_QUOTED,
    PLAIN
  }

  /**
   * The value as a YAML scalar of the given style. A double-quoted scalar can hold any text
   * (escapes for what YAML does not print); single-quoted and plain ones are written raw, as a
   * person would type them, so they may also be invalid YAML.
   */
  static String yaml(String v, Style style) {
    if (v.indexOf('\0') >= 0 || HostileInputPropertyTest.hasLoneSurrogate(v)) {
      // nobody can write these into a UTF-8 file but as escapes
      return doubleQuoted(v);
    }
    return switch (style) {
      case DOUBLE_QUOTED -> doubleQuoted(v);
      case SINGLE_QUOTED -> "'" + v.replace("'", "''") + "'";
      case PLAIN -> v;
    };
  }

  static String doubleQuoted(String v) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        case '\0' -> b.append("\\0");
        default -> {
          boolean printable =
              (c >= 0x20 && c < 0x7F)
                  || (c >= 0xA0 && c <= 0xD7FF && c != 0x2028 && c != 0x2029)
                  || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF);
          if (Character.isHighSurrogate(c)
              && i + 1 < v.length()
              && Character.isLowSurrogate(v.charAt(i + 1))) {
            b.append(c).append(v.charAt(++i));
          } else if (printable) {
            b.append(c);
          } else {
            b.append(String.format("\\u%04X", (int) c));
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** A list of the strings, for messages about what was tried. */
  static List<String> visible(List<String> values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      out.add(visible(v));
    }
    return out;
  }

  /** Text with its invisible characters spelled out, shortened when long. */
  static String visible(String v) {
    return visible(v, 200);
  }

  /** Text with its invisible characters spelled out, shortened beyond {@code max} characters. */
  static String visible(String v, int max) {
    String s = v.length() > max ? v.substring(0, max / 2) + "…(" + v.length() + " chars)" : v;
    StringBuilder b = new StringBuilder();
    s.codePoints()
        .forEach(
            cp -> {
              if (cp == '\n' && max == Integer.MAX_VALUE) {
                b.append('\n');
              } else if (cp < 0x20
                  || (cp >= 0x7F && cp < 0xA0)
                  || (cp >= 0x2028 && cp <= 0x202E)
                  || (cp >= 0x2066 && cp <= 0x2069)
                  || (cp >= 0x200B && cp <= 0x200F)
                  || cp == 0xFEFF
                  || (cp >= 0xD800 && cp <= 0xDFFF)) {
                b.append(String.format("\\u%04X", cp));
              } else {
                b.appendCodePoint(cp);
              }
            });
    return b.toString();
  }
}
