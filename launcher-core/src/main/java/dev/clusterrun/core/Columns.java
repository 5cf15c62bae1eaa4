package dev.clusterrun.core;

import java.util.ArrayList;
import java.util.List;

/** Plain-text tables for people: the one way clusterrun's listings line up their columns. */
public final class Columns {
  private Columns() {}

  /**
   * Each row as one line after {@code indent}: every column but the last padded to its widest cell,
   * two spaces between columns, no trailing white space.
   */
  public static List<String> align(List<String[]> rows, String indent) {
    int[] width = new int[rows.stream().mapToInt(r -> r.length).max().orElse(0)];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    List<String> out = new ArrayList<>();
    for (String[] row : rows) {
      StringBuilder b = new StringBuilder(indent);
      for (int c = 0; c < row.length; c++) {
        if (c > 0) {
          b.append("  ");
        }
        b.append(row[c]);
        if (c < row.length - 1) {
          b.append(" ".repeat(width[c] - row[c].length()));
        }
      }
      out.add(b.toString().stripTrailing());
    }
    return out;
  }
}
