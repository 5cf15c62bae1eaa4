package dev.clusterrun.cli;

import dev.clusterrun.core.bench.ResultsFlow;
import dev.clusterrun.core.bench.ResultsOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "results",
    versionProvider = VersionProvider.class,
    subcommands = {ResultsCompareCommand.class, ResultsReportCommand.class})
final class ResultsCommand extends BaseCommand {
  @Mixin WorkspaceOption workspace;
  @Mixin JsonOption json;

  @Option(names = "--last", paramLabel = "N")
  Integer last;

  @Override
  public Integer call() throws Exception {
    return render(ResultsFlow.list(new ResultsFlow.ListRequest(where(workspace), last, json.on)));
  }

  /** Prints what a results command gave: the skipped lines on stderr, stdout, then its note. */
  int render(ResultsOutcome o) {
    o.skipped().forEach(p -> note(p + " (line skipped)"));
    lines(o.stdout());
    if (o.note() != null) {
      note(o.note());
    }
    return o.exitCode();
  }
}
