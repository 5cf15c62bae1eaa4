package dev.clusterrun.core.bench;

import dev.clusterrun.core.Columns;
import java.util.ArrayList;
import java.util.List;

/**
 * Past runs side by side, one line per run in log order, for {@code clusterrun results}: when,
 * cluster, preset, verdict, headline, per GPU, N, NB, P×Q, nodes, run id and image, in aligned
 * columns.
 */
public final class ResultsTable {
  private ResultsTable() {}

  private static final String[] HEADER = {
    "#", "STARTED", "CLUSTER", "PRESET", "VERDICT", "RESULT", "PER GPU", "N", "NB", "PxQ", "NODES",
    "RUN", "IMAGE"
  };

  public static List<String> lines(List<BenchResult> results) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    int i = 1;
    for (BenchResult r : results) {
      Metric h = r.headline();
      rows.add(
          new String[] {
            Integer.toString(i++),
            Fmt.minute(r.startTime()),
            Fmt.or(r.cluster()),
            r.preset(),
            r.verdict().name(),
            h == null ? "-" : Fmt.num(h.value()) + " " + h.unit(),
            Fmt.num(r.perGpu()),
            Fmt.num(r.n()),
            Fmt.num(r.nb()),
            r.p() == null || r.q() == null ? "-" : r.p() + "x" + r.q(),
            r.nodes().isEmpty() ? "-" : Integer.toString(r.nodes().size()),
            Fmt.or(r.runId()),
            Fmt.or(r.image())
          });
    }
    List<String> out = new ArrayList<>(Columns.align(rows, ""));
    if (results.isEmpty()) {
      out.add("(no runs recorded yet)");
    }
    return out;
  }
}
