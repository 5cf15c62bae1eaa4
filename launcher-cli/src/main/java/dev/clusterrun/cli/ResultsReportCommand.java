package dev.clusterrun.cli;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.Comparison;
import dev.clusterrun.core.bench.HtmlReport;
import dev.clusterrun.core.bench.ResultsLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "report",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Write one self-contained HTML page (no network, no script) of the results log: per"
          + " cluster, preset and size the comparison table and a trend chart per metric (value"
          + " over time, the reference band with --references, failed runs marked), then every"
          + " run with a link to its run directory. Readable in a browser and printable."
    })
final class ResultsReportCommand implements Callable<Integer> {
  @ParentCommand ResultsCommand parent;

  @Option(
      names = "--html",
      required = true,
      paramLabel = "FILE",
      description = "Where to write the page (e.g. <workspace>/report.html).")
  Path html;

  @Mixin ResultsLogOption log;
  @Mixin ResultsSelection selection;

  @Override
  public Integer call() throws Exception {
    RootCommand root = parent.root;
    if (Files.isDirectory(html)) {
      throw new BadInputException("--html", html + " is a directory; give a file name");
    }
    Comparison.Options options = selection.options();
    ResultsLog resultsLog = log.log(root);
    List<BenchResult> runs = selection.select(log.read(root).results(), Instant.now());
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
      Files.setPosixFilePermissions(
          html, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX filesystem: its own defaults
    }
    root.err.println(
        "clusterrun: results report: wrote "
            + html
            + " ("
            + runs.size()
            + (runs.size() == 1 ? " run" : " runs")
            + ")");
    return ExitCodes.OK;
  }
}
