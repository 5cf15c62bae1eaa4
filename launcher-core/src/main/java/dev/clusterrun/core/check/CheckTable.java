package dev.clusterrun.core.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The people's rendering of a {@link CheckReport}. */
final class CheckTable {
  private CheckTable() {}

  static String render(CheckReport r) {
    StringBuilder b = new StringBuilder();
    int w = "node".length();
    for (String n : r.nodes()) {
      w = Math.max(w, n.length() + (n.equals(r.head()) ? 7 : 0));
    }
    int cols = r.checks().size();
    int cw = String.valueOf(cols).length() + 1;
    b.append(pad("node", w));
    for (int i = 1; i <= cols; i++) {
      b.append(leftPad(String.valueOf(i), cw));
    }
    b.append('\n');
    for (String n : r.nodes()) {
      b.append(pad(n.equals(r.head()) ? n + " (head)" : n, w));
      for (CheckId c : r.checks()) {
        String mark = r.result(n, c).map(x -> x.status().mark()).orElse(" ");
        b.append(leftPad(mark, cw));
      }
      b.append('\n');
    }
    b.append('\n');
    List<String> legend = new ArrayList<>();
    for (int i = 0; i < cols; i++) {
      legend.add((i + 1) + " " + r.checks().get(i).id());
    }
    appendWrapped(b, legend, 96);
    b.append("✓ pass  ✗ fail  ! warning  – skipped\n");

    Map<String, List<String>> grouped = new LinkedHashMap<>();
    Map<String, CheckResult> sample = new LinkedHashMap<>();
    for (CheckStatus s : List.of(CheckStatus.FAIL, CheckStatus.WARN)) {
      for (CheckId c : r.checks()) {
        for (String n : r.nodes()) {
          r.result(n, c)
              .filter(x -> x.status() == s)
              .ifPresent(
                  x -> {
                    String key = s + "\u0000" + c + "\u0000" + x.reason() + "\u0000" + x.fix();
                    grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
                    sample.putIfAbsent(key, x);
                  });
        }
      }
    }
    if (!grouped.isEmpty()) {
      b.append('\n');
    }
    for (var e : grouped.entrySet()) {
      CheckResult x = sample.get(e.getKey());
      b.append(x.status().mark())
          .append(' ')
          .append(x.checkId())
          .append(" on ")
          .append(String.join(", ", e.getValue()))
          .append(": ")
          .append(x.reason())
          .append('\n');
      if (!x.fix().isEmpty()) {
        b.append("    fix: ").append(x.fix()).append('\n');
      }
    }
    if (r.proofCleanupProblem() != null) {
      b.append("! shared-path probe: ").append(r.proofCleanupProblem()).append('\n');
    }
    b.append('\n');
    long fail = r.count(CheckStatus.FAIL);
    long warn = r.count(CheckStatus.WARN);
    b.append(r.nodes().size())
        .append(r.nodes().size() == 1 ? " node, " : " nodes, ")
        .append(cols)
        .append(cols == 1 ? " check: " : " checks: ")
        .append(r.count(CheckStatus.PASS))
        .append(" passed, ")
        .append(fail)
        .append(" failed, ")
        .append(warn)
        .append(warn == 1 ? " warning, " : " warnings, ")
        .append(r.count(CheckStatus.SKIP))
        .append(" skipped\n");
    return b.toString();
  }

  private static void appendWrapped(StringBuilder b, List<String> items, int width) {
    StringBuilder line = new StringBuilder();
    for (String it : items) {
      if (line.length() > 0 && line.length() + 2 + it.length() > width) {
        b.append(line).append('\n');
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append("  ");
      }
      line.append(it);
    }
    if (line.length() > 0) {
      b.append(line).append('\n');
    }
  }

  private static String pad(String s, int w) {
    return s + " ".repeat(Math.max(0, w - s.length()));
  }

  private static String leftPad(String s, int w) {
    return " ".repeat(Math.max(0, w - s.length())) + s;
  }
}
