package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "report", versionProvider = VersionProvider.class)
final class ResultsReportCommand extends BaseCommand {
  @ParentCommand ResultsCommand results;

  @Option(names = "--html", required = true, paramLabel = "FILE")
  Path html;

  @Mixin ResultsSelection selection;

  @Override
  public Integer call() throws Exception {
    return results.render(
        ResultsFlow.report(
            new ResultsFlow.ReportRequest(
                where(selection.workspace), selection.toSelection(), html)));
  }
}
