package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "compare",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    exitCodeListHeading = "%nExit codes:%n")
final class ResultsCompareCommand implements Callable<Integer> {
  @ParentCommand ResultsCommand parent;

  @Parameters(arity = "0..2", paramLabel = "RUN_ID", descriptionKey = "results-compare.run-id")
  List<String> runIds;

  @Mixin ResultsLogOption log;
  @Mixin ResultsSelection selection;

  @Option(names = "--json", descriptionKey = "results-compare.json")
  boolean json;

  @Override
  public Integer call() throws Exception {
    RootCommand root = parent.root;
    return ResultsLogOption.render(
        ResultsFlow.compare(
            new ResultsFlow.CompareRequest(log.where(root), selection.toSelection(), runIds, json)),
        root);
  }
}
