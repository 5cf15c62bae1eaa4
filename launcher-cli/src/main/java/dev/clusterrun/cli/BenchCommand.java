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
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:The benchmark ran and PASSED (and held the baseline).",
      "1:The benchmark ran but FAILED, its output could not be read, it fell below the"
          + " baseline by more than --max-regression, or a metric lies outside its reference"
          + " (--references).",
      "N:The job itself exited with code N.",
      "2:Bad input (unknown preset, flags, hostfile, baseline file).",
      "3:A check or the canary failed; the benchmark did not run.",
      "4:The container could not be made ready.",
      "128+N:Ended by signal N (129 SIGHUP, 130 SIGINT, 143 SIGTERM); the job was stopped on"
          + " every node."
    })
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
