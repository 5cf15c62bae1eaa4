package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.bench.BenchResult;
import dev.clusterrun.core.bench.ResultsJson;
import dev.clusterrun.core.bench.ResultsLog;
import dev.clusterrun.core.bench.ResultsTable;
import dev.clusterrun.core.launch.EnvironmentLayer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "results",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "List past benchmark runs side by side, oldest first, from the workspace's results log"
          + " (results.jsonl, one results.json per line, appended by `hpl` and `bench`)."
    })
final class ResultsCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description =
          "Workspace whose log to read (default ~/clusterrun). Env: CLUSTERRUN_WORKSPACE.")
  Path workspace;

  @Option(names = "--json", description = "Print the results as a JSON array.")
  boolean json;

  @Option(names = "--last", paramLabel = "N", description = "Only the N most recent runs.")
  Integer last;

  @Override
  public Integer call() throws Exception {
    if (last != null && last < 1) {
      throw new BadInputException("--last", "must be at least 1, got " + last);
    }
    ResultsLog log = ResultsLog.inWorkspace(workspace());
    String problem = log.problem();
    if (problem != null) {
      throw new BadInputException(workspaceSubject(), problem);
    }
    ResultsLog.Contents c = log.read();
    for (String p : c.problems()) {
      root.err.println("clusterrun: " + p + " (line skipped)");
    }
    List<BenchResult> rs = c.results();
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

  /** Where the workspace came from, to name in messages. */
  private String workspaceSubject() {
    if (workspace != null) {
      return "--workspace";
    }
    String env = root.env.get(EnvironmentLayer.WORKSPACE);
    return env != null && !env.isBlank() ? EnvironmentLayer.WORKSPACE : "workspace";
  }

  private Path workspace() {
    if (workspace != null) {
      return workspace;
    }
    String env = root.env.get(EnvironmentLayer.WORKSPACE);
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String home = root.env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, "clusterrun");
  }
}
