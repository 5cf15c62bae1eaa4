package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchPreset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "bench", versionProvider = VersionProvider.class)
final class BenchCommand extends BaseCommand {
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
  @Mixin BenchRunOptions options;

  @Override
  public Integer call() throws Exception {
    bench.hpcc = hpcc;
    return options.run(BenchPreset.byId(preset), bench, args, nodes, root());
  }
}
