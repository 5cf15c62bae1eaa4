package dev.clusterrun.core.setup;

import java.util.ArrayList;
import java.util.List;

/**
 * A small unified diff ({@code diff -u} format, as {@code patch} reads it) of two texts, for {@code
 * setup --dry-run}. Lines are compared with their line ends, so a missing final newline shows as
 * {@code \ No newline at end of file}. Within a change, removed lines come before added ones, as
 * GNU diff prints them.
 */
public final class UnifiedDiff {
  private UnifiedDiff() {}

  /** Lines of context around each change, as {@code diff -u}. */
  public static final int CONTEXT = 3;

  /** Above this many line pairs the middle of two texts is shown as all removed, all added. */
  private static final long MAX_CELLS = 4_000_000;

  private enum Op {
    EQUAL,
    DELETE,
    INSERT
  }

  private record Edit(Op op, int oldIndex, int newIndex) {}

  /**
   * The diff for one file at {@code path}; {@code oldText == null} means the file does not exist
   * yet ({@code --- /dev/null}), {@code newText == null} that it goes away. Empty when both are
   * equal.
   */
  public static String of(String oldText, String newText, String path) {
    return diff(
        oldText == null ? "" : oldText,
        newText == null ? "" : newText,
        oldText == null ? "/dev/null" : path,
        newText == null ? "/dev/null" : path);
  }

  /** The unified diff from {@code oldText} to {@code newText}; empty when they are equal. */
  public static String diff(String oldText, String newText, String oldLabel, String newLabel) {
    List<String> a = lines(oldText);
    List<String> b = lines(newText);
    List<Edit> edits = edits(a, b);
    StringBuilder out = new StringBuilder();
    int n = edits.size();
    int i = 0;
    while (i < n) {
      // Find the next change.
      while (i < n && edits.get(i).op == Op.EQUAL) {
        i++;
      }
      if (i == n) {
        break;
      }
      int start = Math.max(0, i - CONTEXT);
      // Extend the hunk while the next change is within 2 * CONTEXT equal lines.
      int end = i;
      int j = i;
      while (j < n) {
        if (edits.get(j).op != Op.EQUAL) {
          end = j;
          j++;
          continue;
        }
        int run = j;
        while (run < n && edits.get(run).op == Op.EQUAL) {
          run++;
        }
        if (run == n || run - j > 2 * CONTEXT) {
          break;
        }
        j = run;
      }
      int stop = Math.min(n, end + 1 + CONTEXT);
      if (out.isEmpty()) {
        out.append("--- ").append(oldLabel).append('\n');
        out.append("+++ ").append(newLabel).append('\n');
      }
      appendHunk(out, edits.subList(start, stop), a, b);
      i = stop;
    }
    return out.toString();
  }

  private static void appendHunk(
      StringBuilder out, List<Edit> hunk, List<String> a, List<String> b) {
    int oldCount = 0;
    int newCount = 0;
    for (Edit e : hunk) {
      if (e.op != Op.INSERT) {
        oldCount++;
      }
      if (e.op != Op.DELETE) {
        newCount++;
      }
    }
    // The 0-based position where the hunk starts in each text (for an empty range: the number of
    // lines before it, as diff -u prints it).
    int oldStart = hunk.get(0).oldIndex;
    int newStart = hunk.get(0).newIndex;
    out.append("@@ -")
        .append(range(oldStart, oldCount))
        .append(" +")
        .append(range(newStart, newCount))
        .append(" @@\n");
    for (Edit e : hunk) {
      switch (e.op) {
        case EQUAL -> appendLine(out, ' ', a.get(e.oldIndex));
        case DELETE -> appendLine(out, '-', a.get(e.oldIndex));
        case INSERT -> appendLine(out, '+', b.get(e.newIndex));
      }
    }
  }

  private static String range(int start0, int count) {
    if (count == 0) {
      return start0 + ",0";
    }
    return count == 1 ? String.valueOf(start0 + 1) : (start0 + 1) + "," + count;
  }

  private static void appendLine(StringBuilder out, char tag, String line) {
    out.append(tag);
    if (line.endsWith("\n")) {
      out.append(line);
    } else {
      out.append(line).append("\n\\ No newline at end of file\n");
    }
  }

  /** Lines with their {@code \n}; the last one lacks it when the text does not end with one. */
  static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int from = 0;
    while (from < text.length()) {
      int nl = text.indexOf('\n', from);
      int to = nl < 0 ? text.length() : nl + 1;
      lines.add(text.substring(from, to));
      from = to;
    }
    return lines;
  }

  /**
   * A shortest edit script by longest common subsequence, after trimming the common head and tail.
   * Each edit carries the position in both texts where it happens, so an insert knows where in the
   * old text it goes and a delete where in the new one.
   */
  private static List<Edit> edits(List<String> a, List<String> b) {
    int head = 0;
    while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) {
      head++;
    }
    int tail = 0;
    while (tail < a.size() - head
        && tail < b.size() - head
        && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) {
      tail++;
    }
    int n = a.size() - head - tail;
    int m = b.size() - head - tail;
    List<Op> middle = new ArrayList<>();
    if ((long) (n + 1) * (m + 1) > MAX_CELLS) {
      for (int k = 0; k < n; k++) {
        middle.add(Op.DELETE);
      }
      for (int k = 0; k < m; k++) {
        middle.add(Op.INSERT);
      }
    } else {
      int[][] lcs = new int[n + 1][m + 1];
      for (int x = n - 1; x >= 0; x--) {
        for (int y = m - 1; y >= 0; y--) {
          lcs[x][y] =
              a.get(head + x).equals(b.get(head + y))
                  ? lcs[x + 1][y + 1] + 1
                  : Math.max(lcs[x + 1][y], lcs[x][y + 1]);
        }
      }
      int x = 0;
      int y = 0;
      List<Op> deletes = new ArrayList<>();
      List<Op> inserts = new ArrayList<>();
      while (x < n || y < m) {
        if (x < n && y < m && a.get(head + x).equals(b.get(head + y))) {
          middle.addAll(deletes);
          middle.addAll(inserts);
          deletes.clear();
          inserts.clear();
          middle.add(Op.EQUAL);
          x++;
          y++;
        } else if (y == m || (x < n && lcs[x + 1][y] >= lcs[x][y + 1])) {
          deletes.add(Op.DELETE);
          x++;
        } else {
          inserts.add(Op.INSERT);
          y++;
        }
      }
      middle.addAll(deletes);
      middle.addAll(inserts);
    }
    List<Edit> edits = new ArrayList<>(a.size() + m);
    int x = 0;
    int y = 0;
    for (int k = 0; k < head; k++) {
      edits.add(new Edit(Op.EQUAL, x++, y++));
    }
    for (Op op : middle) {
      edits.add(new Edit(op, x, y));
      if (op != Op.INSERT) {
        x++;
      }
      if (op != Op.DELETE) {
        y++;
      }
    }
    for (int k = 0; k < tail; k++) {
      edits.add(new Edit(Op.EQUAL, x++, y++));
    }
    return edits;
  }
}
