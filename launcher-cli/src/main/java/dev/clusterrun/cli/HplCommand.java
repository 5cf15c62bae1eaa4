package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchPreset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(
    name = "hpl",
    versionProvider = VersionProvider.class,
    description = {
      "Run NVIDIA HPL across the nodes: NVIDIA HPC-Benchmarks ("
          + BenchPreset.HpcBenchmarks.IMAGE
          + " unless --container-image says otherwise) in the named container hpc-benchmarks,"
          + " one rank per hostfile slot, hpl.sh found in the container, the dat file given or"
          + " picked for the GPUs (--dat auto, the default), HPL_USE_NVSHMEM=0 on every rank.",
      "Prints a summary, writes results.json into the run directory and appends it to the"
          + " workspace's results log (see `clusterrun results`). Same as `clusterrun bench hpl`."
    })
final class HplCommand extends BaseCommand {
  @Mixin NodesOption nodes;
  @Mixin BenchOptions bench;
  @Mixin BenchRunOptions options;

  @Parameters(
      index = "0..*",
      arity = "0..*",
      paramLabel = "[HPL.SH ARGS...]",
      parameterConsumer = CommandWords.CommandOnly.class,
      descriptionKey = "hpl.hpl-sh-args")
  CommandWords args;

  @Override
  public Integer call() throws Exception {
    return options.run(BenchPreset.HPL, bench, args, nodes, root());
  }
}
