package dev.clusterrun.cli;

import dev.clusterrun.core.launch.JobWords;
import dev.clusterrun.core.launch.LaunchOptions;
import dev.clusterrun.core.screen.ScreenFlow;
import dev.clusterrun.core.screen.ScreenOutcome;
import dev.clusterrun.core.screen.ScreenReport;
import dev.clusterrun.core.screen.ScreenRequest;
import dev.clusterrun.core.screen.Tolerances;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "screen",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class)
final class ScreenCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin NodesOption nodes;

  @Option(names = "--tolerance", paramLabel = "[METRIC=]PERCENT")
  List<String> tolerance = new ArrayList<>();

  @Option(names = "--references", paramLabel = "FILE", descriptionKey = "screen.references")
  Path references;

  @Option(names = "--cluster", paramLabel = "NAME", descriptionKey = "screen.cluster")
  String cluster;

  @Option(names = "--repeat", paramLabel = "N")
  int repeat = ScreenRequest.DEFAULT_REPEAT;

  @Option(names = "--json", descriptionKey = "screen.json")
  boolean json;

  @Option(names = "--junit", paramLabel = "FILE", descriptionKey = "screen.junit")
  Path junit;

  @Option(names = "--write-hostfile", paramLabel = "FILE")
  Path writeHostfile;

  @Mixin JobOptions job;
  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws Exception {
    ScreenRequest rq =
        new ScreenRequest(
            job.input(nodes, JobWords.NONE, ssh, root.env, null),
            LaunchOptions.of(false, false, false, "auto", job.noHook),
            new ScreenRequest.Judging(Tolerances.parse(tolerance), references, cluster),
            repeat,
            writeHostfile,
            junit,
            VersionProvider.version());
    ScreenOutcome out = ScreenFlow.run(rq, RunOptions.console(root));
    if (out.failed() != null) {
      RunCommand.render(out.failed(), root.err);
    }
    if (out.verdict() != null) {
      root.out.print(ScreenReport.render(out.verdict(), json));
    }
    ScreenReport.messages(out).forEach(root.err::println);
    root.out.flush();
    root.err.flush();
    return out.exitCode();
  }
}
