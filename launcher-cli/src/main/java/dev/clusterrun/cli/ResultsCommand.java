package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "results",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    subcommands = {ResultsCompareCommand.class, ResultsReportCommand.class})
final class ResultsCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin ResultsLogOption log;

  @Option(names = "--json", descriptionKey = "results.json")
  boolean json;

  @Option(names = "--last", paramLabel = "N")
  Integer last;

  @Override
  public Integer call() throws Exception {
    return ResultsLogOption.render(
        ResultsFlow.list(new ResultsFlow.ListRequest(log.where(root), last, json)), root);
  }
}
