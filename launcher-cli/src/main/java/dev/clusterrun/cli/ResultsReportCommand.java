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
    versionProvider = VersionProvider.class)
final class ResultsReportCommand implements Callable<Integer> {
  @ParentCommand ResultsCommand parent;

  @Option(names = "--html", required = true, paramLabel = "FILE")
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
