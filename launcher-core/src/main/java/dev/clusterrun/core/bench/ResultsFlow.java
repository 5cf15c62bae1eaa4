package dev.clusterrun.core.bench;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.ExitCode;
import dev.clusterrun.core.WorkspaceDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The flows of {@code results}, {@code results compare} and {@code results report}: past runs from
 * a workspace's results log, listed, compared per metric, or drawn on one HTML page.
 */
public final class ResultsFlow {
  private ResultsFlow() {}

  /**
   * The results log of the workspace; its problems (a workspace that is a file …) are bad input
   * naming the setting.
   */
  private static ResultsLog log(WorkspaceDir where) {
    ResultsLog log = ResultsLog.inWorkspace(where.path());
    String problem = log.problem();
    if (problem != null) {
      throw new BadInputException(where.subject(), problem);
    }
    return log;
  }

  /**
   * Which runs {@code compare} and {@code report} look at, and how they judge.
   *
   * @param since an age ({@code 7d}) or a date, or null
   * @param metrics the metrics to show, or null for the headline and every performance metric
   * @param references expected values (YAML), or null
   * @param maxRegression how far a metric may get worse before it is {@code regressed}, percent
   */
  public record Selection(
      String since,
      String preset,
      String cluster,
      List<String> metrics,
      Path references,
      double maxRegression) {

    Comparison.Options options() {
      if (!(maxRegression >= 0) || Double.isInfinite(maxRegression)) {
        throw new BadInputException("--max-regression", "must be a percentage of 0 or more");
      }
      References refs = references == null ? null : References.read(references);
      Set<String> wanted = metrics == null ? Set.of() : new LinkedHashSet<>(metrics);
      return new Comparison.Options(maxRegression, wanted, refs);
    }

    List<BenchResult> select(List<BenchResult> all, Instant now) {
      List<BenchResult> out = all;
      if (since != null) {
        Instant from = BadInputException.about("--since", () -> Comparison.since(since, now));
        out = Comparison.since(out, from);
      }
      return Comparison.only(out, preset, cluster);
    }
  }

  /** {@code results}: every run (or the {@code last} ones), as a table or a JSON array. */
  public record ListRequest(WorkspaceDir where, Integer last, boolean json) {}

  /** {@code results compare}: the selected runs (or two by run id), a table per metric. */
  public record CompareRequest(
      WorkspaceDir where, Selection selection, List<String> runIds, boolean json) {}

  /** {@code results report}: the selected runs on one self-contained HTML page. */
  public record ReportRequest(WorkspaceDir where, Selection selection, Path html) {}

  public static ResultsOutcome list(ListRequest rq) throws IOException {
    if (rq.last() != null && rq.last() < 1) {
      throw new BadInputException("--last", "must be at least 1, got " + rq.last());
    }
    ResultsLog.Contents c = log(rq.where()).read();
    List<BenchResult> rs = c.results();
    if (rq.last() != null && rs.size() > rq.last()) {
      rs = rs.subList(rs.size() - rq.last(), rs.size());
    }
    List<String> out;
    if (rq.json()) {
      List<String> items = new ArrayList<>();
      for (BenchResult r : rs) {
        items.add("  " + ResultsJson.toJsonLine(r));
      }
      out = List.of(items.isEmpty() ? "[]" : "[\n" + String.join(",\n", items) + "\n]");
    } else {
      out = ResultsTable.lines(rs);
    }
    return new ResultsOutcome(out, c.problems(), null, ExitCode.OK.value());
  }

  public static ResultsOutcome compare(CompareRequest rq) throws IOException {
    if (rq.runIds() != null && rq.runIds().size() == 1) {
      throw new BadInputException(
          "RUN_ID", "give two run ids to compare (or none, with --since for a window)");
    }
    Comparison.Options options = rq.selection().options();
    ResultsLog.Contents c = log(rq.where()).read();
    List<BenchResult> selected = rq.selection().select(c.results(), Instant.now());
    List<BenchResult> runs =
        rq.runIds() == null ? selected : Comparison.byRunIds(selected, rq.runIds(), "RUN_ID");
    List<Comparison.Row> rows = Comparison.rows(runs, options);
    List<String> out =
        rq.json() ? List.of(Comparison.json(rows).stripTrailing()) : Comparison.text(rows);
    boolean bad = rows.stream().anyMatch(Comparison.Row::bad);
    return new ResultsOutcome(
        out, c.problems(), null, (bad ? ExitCode.RESULT_FAILED : ExitCode.OK).value());
  }

  public static ResultsOutcome report(ReportRequest rq) throws IOException {
    Path html = rq.html();
    if (Files.isDirectory(html)) {
      throw new BadInputException("--html", html + " is a directory; give a file name");
    }
    Comparison.Options options = rq.selection().options();
    ResultsLog resultsLog = log(rq.where());
    ResultsLog.Contents c = resultsLog.read();
    List<BenchResult> runs = rq.selection().select(c.results(), Instant.now());
    Path dir = html.toAbsolutePath().getParent();
    String page =
        HtmlReport.render(
            new HtmlReport.Input(runs, options, resultsLog.file().toString(), dir, Instant.now()));
    if (dir != null) {
      Files.createDirectories(dir);
    }
    AtomicFiles.write(html, page);
    try {
      // a page to share, readable like any file a user writes (the temporary file was 0600)
      Files.setPosixFilePermissions(html, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX filesystem: its own defaults
    }
    String note =
        "results report: wrote "
            + html
            + " ("
            + runs.size()
            + (runs.size() == 1 ? " run" : " runs")
            + ")";
    return new ResultsOutcome(List.of(), c.problems(), note, ExitCode.OK.value());
  }
}
