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
    description = {
      "Compare runs of the results log: per cluster, preset and size, a table with one line per"
          + " metric: runs, failed runs, first, last, mean and median of the passed runs, the"
          + " change from first to last and a verdict (within/outside reference with"
          + " --references; else regressed, improved or steady by --max-regression).",
      "Give two run ids to compare just those (the first is `first`), or --since for a window."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:Every metric steady, improved or within its reference.",
      "1:A metric regressed or lies outside its reference.",
      "2:Bad input (flags, an unknown run id, the references file)."
    })
final class ResultsCompareCommand implements Callable<Integer> {
  @ParentCommand ResultsCommand parent;

  @Parameters(
      arity = "0..2",
      paramLabel = "RUN_ID",
      description = "Two runs to compare (ids as `clusterrun results` shows them).")
  List<String> runIds;

  @Mixin ResultsLogOption log;
  @Mixin ResultsSelection selection;

  @Option(names = "--json", description = "Print the rows as a JSON array.")
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
