package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchFlow;
import dev.clusterrun.core.bench.BenchOutcome;
import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.bench.BenchRequest;
import dev.clusterrun.core.launch.JobWords;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
    name = "hpl",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run NVIDIA HPL across the nodes: NVIDIA HPC-Benchmarks ("
          + BenchPreset.HpcBenchmarks.IMAGE
          + " unless --container-image says otherwise) in the named container hpc-benchmarks,"
          + " one rank per hostfile slot, hpl.sh found in the container, the dat file given or"
          + " picked for the GPUs (--dat auto, the default), HPL_USE_NVSHMEM=0 on every rank.",
      "Prints a summary, writes results.json into the run directory and appends it to the"
          + " workspace's results log (see `clusterrun results`). Same as `clusterrun bench hpl`."
    },
    exitCodeListHeading = "%nExit codes:%n")
final class HplCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;

  @Mixin NodesOption nodes;

  @Mixin BenchOptions bench;
  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin SshOptions ssh;

  @Parameters(
      index = "0..*",
      arity = "0..*",
      paramLabel = "[HPL.SH ARGS...]",
      parameterConsumer = CommandWords.CommandOnly.class,
      descriptionKey = "hpl.hpl-sh-args")
  CommandWords args;

  @Override
  public Integer call() throws Exception {
    BenchRequest rq =
        new BenchRequest(
            BenchPreset.HPL,
            job.input(nodes.path, JobWords.NONE, ssh, root.env, null),
            run.options(job),
            bench.toSettings(),
            args == null ? null : args.command,
            VersionProvider.version());
    Integer detached = run.detachFrom(root);
    if (detached != null) {
      return detached;
    }
    return render(BenchFlow.run(rq, RunOptions.console(root)), root);
  }

  /** What {@code hpl} and {@code bench} print: why the job did not run, else the summary. */
  static int render(BenchOutcome outcome, RootCommand root) {
    if (outcome.launch() != null) {
      RunCommand.render(outcome.launch(), root.err);
    }
    for (String text : outcome.stdout()) {
      root.out.print(text.endsWith("\n") ? text : text + "\n");
    }
    root.out.flush();
    return outcome.exitCode();
  }
}
