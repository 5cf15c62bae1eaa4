package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.JobWords;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.screen.ScreenFlow;
import dev.clusterrun.core.screen.ScreenOutcome;
import dev.clusterrun.core.screen.ScreenRequest;
import dev.clusterrun.core.screen.Tolerances;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "screen")
final class ScreenCommand extends BaseCommand {
  @Mixin NodesOption nodes;

  @Option(names = "--tolerance", paramLabel = "[METRIC=]PERCENT")
  List<String> tolerance = new ArrayList<>();

  @Mixin ReferencesOption references;
  @Mixin ClusterOption cluster;

  @Option(names = "--repeat", paramLabel = "N")
  int repeat = ScreenRequest.DEFAULT_REPEAT;

  @Mixin JsonOption json;
  @Mixin JunitOption junit;

  @Option(names = "--write-hostfile", paramLabel = "FILE")
  Path writeHostfile;

  @Mixin JobOptions job;
  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws Exception {
    RootCommand root = root();
    ScreenRequest rq =
        new ScreenRequest(
            job.input(nodes, JobWords.NONE, ssh, root.env, null),
            LaunchOptions.standard(job.noHook),
            new ScreenRequest.Judging(Tolerances.parse(tolerance), references.file, cluster.name),
            repeat,
            writeHostfile,
            junit.file,
            VersionProvider.version());
    ScreenOutcome out = ScreenFlow.run(rq, RunOptions.console(root));
    if (out.failed() != null) {
      RunCommand.render(out.failed(), root.err);
    }
    root.out.print(out.stdout(json.on));
    out.messages().forEach(root.err::println);
    root.out.flush();
    root.err.flush();
    return out.exitCode();
  }
}
