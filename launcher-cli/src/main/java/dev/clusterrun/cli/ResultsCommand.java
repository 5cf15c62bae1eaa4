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
    subcommands = {ResultsCompareCommand.class, ResultsReportCommand.class},
    description = {
      "List past benchmark runs side by side, oldest first, from the workspace's results log"
          + " (results.jsonl, one results.json per line, appended by `hpl` and `bench`).",
      "`results compare` puts them in a table per metric (first, last, mean, median, change,"
          + " verdict); `results report --html FILE` draws them on one self-contained page."
    })
final class ResultsCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin ResultsLogOption log;

  @Option(names = "--json", description = "Print the results as a JSON array.")
  boolean json;

  @Option(names = "--last", paramLabel = "N", description = "Only the N most recent runs.")
  Integer last;

  @Override
  public Integer call() throws Exception {
    return ResultsLogOption.render(
        ResultsFlow.list(new ResultsFlow.ListRequest(log.where(root), last, json)), root);
  }
}
