package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "compare",
    versionProvider = VersionProvider.class,
    exitCodeListHeading = "%nExit codes:%n")
final class ResultsCompareCommand extends BaseCommand {
  @ParentCommand ResultsCommand results;

  @Parameters(arity = "0..2", paramLabel = "RUN_ID", descriptionKey = "results-compare.run-id")
  List<String> runIds;

  @Mixin ResultsSelection selection;
  @Mixin JsonOption json;

  @Override
  public Integer call() throws Exception {
    return results.render(
        ResultsFlow.compare(
            new ResultsFlow.CompareRequest(
                where(selection.workspace), selection.toSelection(), runIds, json.on)));
  }
}
