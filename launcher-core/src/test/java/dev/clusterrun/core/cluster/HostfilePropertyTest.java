package dev.clusterrun.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.remote.ShellQuote;
import java.security.SecureRandom;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Hostile hostfiles: every line is refused naming {@code FILE:LINE} (exit 2 in the CLI), or gives
 * hosts whose names a shell, SSH and Open MPI take as they are (no character that needs quoting)
 * and whose hostfile, written again, reads back the same. Seeded like {@code
 * HostileInputPropertyTest}: {@code -Dhostile.seed=N|random -Dhostile.tries=N} (see {@code
 * docs/reliability.md}).
 */
class HostfilePropertyTest {
  static final long SEED = 20261204L;

  static final List<String> PIECES =
      List.of(
          "node",
          "gpu",
          "01",
          "7",
          "a",
          "-",
          ".",
          "..",
          "[1-3]",
          "[01-16]",
          "[1-3,7]",
          "[3-1]",
          "[1-",
          "]",
          "[1-100000]",
          "[0-99999999999]",
          "10.0.0.",
          "10.0.1.[1-4]",
          "fe80::21",
          "::1",
          "256",
          " ",
          "\t",
          "  ",
          "=",
          " = ",
          "slots=",
          "slots=2",
          "slots=0",
          "max_slots=",
          "max_slots=1",
          "cpu=",
          "count=",
          "slot=",
          "user@",
          "username=",
          "port=22",
          "^",
          "+n0",
          "#",
          "//",
          "/*",
          "$(touch MARKER)",
          "`touch MARKER`",
          ";touch MARKER",
          "|",
          "&&",
          "'",
          "\"",
          "\\",
          "$HOME",
          "*",
          "?",
          "~",
          ",",
          ":",
          "@",
          "\r",
          "\u0000",
          "\u001B[31m",
          "\u007F",
          "\u0085",
          "\u00A0",
          "\u2028",
          "\u200B",
          "\u202E",
          "é",
          "ｎｏｄｅ",
          "\uD83D\uDE00",
          "e\u0301",
          "\uFEFF",
          "99999999999999999999",
          "-1",
          "_");

  /** Host names as clusterrun passes them on: RFC 1123 labels, IPv4, IPv6 (no brackets). */
  static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9.:-]+");

  static String line(Random r) {
    if (r.nextInt(4) == 0) {
      return "node0" + (1 + r.nextInt(9)) + " slots=" + (1 + r.nextInt(4));
    }
    StringBuilder b = new StringBuilder();
    int n = 1 + r.nextInt(6);
    for (int i = 0; i < n; i++) {
      b.append(PIECES.get(r.nextInt(PIECES.size())));
    }
    if (r.nextInt(30) == 0) {
      b.append("x".repeat(5_000 + r.nextInt(100_000)));
    }
    return b.toString();
  }

  @Test
  void everyLineIsRefusedAtItsLineOrGivesNamesThatNeedNoQuoting() {
    String s = System.getProperty("hostile.seed", "").strip();
    long seed =
        s.isEmpty()
            ? SEED
            : s.equalsIgnoreCase("random") ? new SecureRandom().nextLong() : Long.parseLong(s);
    String t = System.getProperty("hostile.tries", "").strip();
    int tries = t.isEmpty() ? 3000 : Integer.parseInt(t);
    int accepted = 0;
    int refused = 0;
    for (int i = 0; i < tries; i++) {
      Random r = new Random(seed + i);
      StringBuilder text = new StringBuilder();
      int lines = 1 + r.nextInt(4);
      for (int l = 0; l < lines; l++) {
        text.append(line(r)).append(r.nextInt(8) == 0 ? "\r\n" : "\n");
      }
      String file = text.toString();
      String shown = BadInputException.visible(file.length() > 300 ? file.substring(0, 300) : file);
      String replay = " (replay: -Dhostile.seed=" + (seed + i) + " -Dhostile.tries=1): " + shown;
      Hostfile h;
      try {
        h = HostfileParser.parse(file, "hosts.txt");
      } catch (BadInputException e) {
        refused++;
        assertThat(e.subject()).as("subject" + replay).matches("hosts\\.txt(:[0-9]+)?");
        assertThat(e.getMessage())
            .as("message" + replay)
            .doesNotContain("\n")
            .doesNotContain("\r")
            .doesNotContain("\u001B")
            .doesNotContain("\u202E")
            .hasSizeLessThan(2_000);
        continue;
      } catch (RuntimeException e) {
        throw new AssertionError("not a refusal naming the line" + replay, e);
      }
      accepted++;
      assertThat(h.hosts()).as("hosts" + replay).isNotEmpty();
      for (Host host : h.hosts()) {
        assertThat(host.name()).as("name" + replay).matches(SAFE_NAME);
        assertThat(ShellQuote.quote(host.name())).as("quoting" + replay).isEqualTo(host.name());
        assertThat(host.slots()).as("slots" + replay).isPositive();
      }
      Hostfile again = HostfileParser.parse(h.render(), "hosts.txt");
      assertThat(again.names()).as("written again" + replay).isEqualTo(h.names());
    }
    System.out.printf(
        "hostfiles: %d tries from seed %d: %d accepted, %d refused%n",
        tries, seed, accepted, refused);
    assertThat(accepted).isPositive();
    assertThat(refused).isPositive();
  }
}
