package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.nio.file.Path;
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
    return ResultsLogOption.render(
        ResultsFlow.report(
            new ResultsFlow.ReportRequest(log.where(root), selection.toSelection(), html)),
        root);
  }
}
