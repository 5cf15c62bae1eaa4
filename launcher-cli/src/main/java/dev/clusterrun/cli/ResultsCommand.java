package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.ResultsJson;
import dev.clusterrun.core.bench.ResultsTable;
import java.util.ArrayList;
import java.util.List;
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
    if (last != null && last < 1) {
      throw new BadInputException("--last", "must be at least 1, got " + last);
    }
    List<BenchResult> rs = log.read(root).results();
    if (last != null && rs.size() > last) {
      rs = rs.subList(rs.size() - last, rs.size());
    }
    if (json) {
      List<String> items = new ArrayList<>();
      for (BenchResult r : rs) {
        items.add("  " + ResultsJson.toJsonLine(r));
      }
      root.out.print(items.isEmpty() ? "[]\n" : "[\n" + String.join(",\n", items) + "\n]\n");
    } else {
      for (String line : ResultsTable.lines(rs)) {
        root.out.println(line);
      }
    }
    root.out.flush();
    return ExitCodes.OK;
  }
}
