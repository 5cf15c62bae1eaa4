package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchFlow;
import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.bench.BenchRequest;
import dev.clusterrun.core.launch.JobWords;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "bench",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    exitCodeListHeading = "%nExit codes:%n")
final class BenchCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Parameters(
      index = "0",
      paramLabel = "PRESET",
      completionCandidates = Candidates.Presets.class,
      descriptionKey = "bench.preset")
  String preset;

  @Parameters(
      index = "1..*",
      arity = "0..*",
      paramLabel = "[ARGS...]",
      parameterConsumer = CommandWords.CommandOnly.class,
      descriptionKey = "bench.args")
  CommandWords args;

  @Mixin NodesOption nodes;

  @Mixin BenchOptions bench;
  @Mixin HpccOptions hpcc;
  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin SshOptions ssh;

  @Override
  public Integer call() throws Exception {
    bench.hpcc = hpcc;
    BenchRequest rq =
        new BenchRequest(
            BenchPreset.byId(preset),
            job.input(nodes.path, JobWords.NONE, ssh, root.env, null),
            run.options(job),
            bench.toSettings(),
            args == null ? null : args.command,
            VersionProvider.version());
    Integer detached = run.detachFrom(root);
    if (detached != null) {
      return detached;
    }
    return HplCommand.render(BenchFlow.run(rq, RunOptions.console(root)), root);
  }
}
