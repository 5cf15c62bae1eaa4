package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnifiedDiffTest {
  @TempDir Path tmp;

  /** GNU diff's unified output for the same texts and labels (diffutils is on every Debian). */
  String gnuDiff(String a, String b) throws IOException {
    Path fa = tmp.resolve("a");
    Path fb = tmp.resolve("b");
    Files.writeString(fa, a, StandardCharsets.UTF_8);
    Files.writeString(fb, b, StandardCharsets.UTF_8);
    Process p =
        new ProcessBuilder(
                "diff", "-u", "--label", "old", "--label", "new", fa.toString(), fb.toString())
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      assertThat(p.waitFor()).isIn(0, 1);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  static String numbered(int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int i = from; i <= to; i++) {
      b.append("line ").append(i).append('\n');
    }
    return b.toString();
  }

  @Test
  void equalTextsHaveNoDiff() {
    assertThat(UnifiedDiff.diff("a\nb\n", "a\nb\n", "old", "new")).isEmpty();
    assertThat(UnifiedDiff.diff("", "", "old", "new")).isEmpty();
  }

  @Test
  void newFileIsAllAdded() {
    assertThat(UnifiedDiff.of(null, "a\nb\n", "/etc/x"))
        .isEqualTo("--- /dev/null\n+++ /etc/x\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "one line changed in the middle | 1,20 | 1,9;X;11,20",
        "insert at the start | 1,8 | X;1,8",
        "delete at the end | 1,8 | 1,6",
        "two changes far apart | 1,30 | 1,4;X;6,25;Y;27,30",
        "two changes close together, one hunk | 1,30 | 1,9;X;11,15;Y;17,30",
        "replace everything | 1,3 | 4,5",
        "empty to something | - | 1,2",
        "something to empty | 1,2 | -",
      })
  void sameAsGnuDiff(String name, String a, String b) throws IOException {
    String oldText = build(a);
    String newText = build(b);
    assertThat(UnifiedDiff.diff(oldText, newText, "old", "new"))
        .isEqualTo(gnuDiff(oldText, newText));
  }

  @Test
  void missingFinalNewlineIsMarkedLikeGnuDiff() throws IOException {
    for (String[] pair :
        new String[][] {
          {"a\nb\nc", "a\nb\nc\n"},
          {"a\nb\nc\n", "a\nb\nc"},
          {"a\nb", "a\nc"},
          {"x", ""},
        }) {
      assertThat(UnifiedDiff.diff(pair[0], pair[1], "old", "new"))
          .isEqualTo(gnuDiff(pair[0], pair[1]));
    }
  }

  /**
   * Random texts: the diff must turn the old text into the new one when applied, and be as short as
   * GNU diff's (both are minimal: same number of removed and added lines).
   */
  @Test
  void randomTextsRoundTripAndAreMinimal() throws IOException {
    Random random = new Random(42);
    for (int round = 0; round < 300; round++) {
      String a = randomText(random);
      String b = random.nextInt(4) == 0 ? a : mutate(random, a);
      String diff = UnifiedDiff.diff(a, b, "old", "new");
      assertThat(applyPatch(a, diff)).as("a=%s b=%s diff=%s", a, b, diff).isEqualTo(b);
      String gnu = gnuDiff(a, b);
      assertThat(count(diff, '-')).as(diff + "\nvs GNU\n" + gnu).isEqualTo(count(gnu, '-'));
      assertThat(count(diff, '+')).as(diff + "\nvs GNU\n" + gnu).isEqualTo(count(gnu, '+'));
    }
  }

  /** "1,5;X;7,9" is lines 1..5, a line "X", lines 7..9; "-" is the empty text. */
  static String build(String spec) {
    if (spec.equals("-")) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (String part : spec.split(";")) {
      if (part.contains(",")) {
        String[] r = part.split(",");
        b.append(numbered(Integer.parseInt(r[0]), Integer.parseInt(r[1])));
      } else {
        b.append(part).append('\n');
      }
    }
    return b.toString();
  }

  static String randomText(Random random) {
    StringBuilder b = new StringBuilder();
    int n = random.nextInt(15);
    for (int i = 0; i < n; i++) {
      b.append((char) ('a' + random.nextInt(4))).append('\n');
    }
    if (n > 0 && random.nextInt(5) == 0) {
      b.setLength(b.length() - 1);
    }
    return b.toString();
  }

  static String mutate(Random random, String text) {
    List<String> lines = new ArrayList<>(UnifiedDiff.lines(text));
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits; e++) {
      int at = lines.isEmpty() ? 0 : random.nextInt(lines.size() + 1);
      switch (random.nextInt(3)) {
        case 0 -> lines.add(at, (char) ('a' + random.nextInt(6)) + "\n");
        case 1 -> {
          if (at < lines.size()) {
            lines.remove(at);
          }
        }
        default -> {
          if (at < lines.size()) {
            lines.set(at, (char) ('a' + random.nextInt(6)) + "\n");
          }
        }
      }
    }
    return String.join("", lines);
  }

  static long count(String diff, char tag) {
    return diff.lines()
        .filter(l -> l.length() > 0 && l.charAt(0) == tag)
        .filter(l -> !l.startsWith("--- ") && !l.startsWith("+++ "))
        .count();
  }

  private static final Pattern HUNK =
      Pattern.compile("@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

  /** A strict little patch: every hunk must sit exactly where its header says. */
  static String applyPatch(String oldText, String diff) {
    if (diff.isEmpty()) {
      return oldText;
    }
    List<String> old = UnifiedDiff.lines(oldText);
    List<String> out = new ArrayList<>();
    List<String> lines = UnifiedDiff.lines(diff);
    assertThat(lines.get(0)).isEqualTo("--- old\n");
    assertThat(lines.get(1)).isEqualTo("+++ new\n");
    int next = 0; // next old line not yet copied
    int i = 2;
    while (i < lines.size()) {
      Matcher m = HUNK.matcher(lines.get(i));
      assertThat(m.lookingAt()).as(lines.get(i)).isTrue();
      int oldStart = Integer.parseInt(m.group(1));
      int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
      int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
      int from = oldCount == 0 ? oldStart : oldStart - 1;
      assertThat(from).isGreaterThanOrEqualTo(next);
      out.addAll(old.subList(next, from));
      int pos = from;
      int seenOld = 0;
      int seenNew = 0;
      i++;
      while (i < lines.size() && !lines.get(i).startsWith("@@")) {
        String l = lines.get(i);
        String body = l.substring(1);
        if (i + 1 < lines.size() && lines.get(i + 1).equals("\\ No newline at end of file\n")) {
          body = body.substring(0, body.length() - 1);
        }
        switch (l.charAt(0)) {
          case ' ' -> {
            assertThat(old.get(pos)).isEqualTo(body);
            out.add(body);
            pos++;
            seenOld++;
            seenNew++;
          }
          case '-' -> {
            assertThat(old.get(pos)).isEqualTo(body);
            pos++;
            seenOld++;
          }
          case '+' -> {
            out.add(body);
            seenNew++;
          }
          case '\\' -> {}
          default -> throw new AssertionError("bad diff line: " + l);
        }
        i++;
      }
      assertThat(seenOld).isEqualTo(oldCount);
      assertThat(seenNew).isEqualTo(newCount);
      next = pos;
    }
    out.addAll(old.subList(next, old.size()));
    return String.join("", out);
  }
}
