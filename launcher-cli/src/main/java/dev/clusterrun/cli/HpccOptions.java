package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import picocli.CommandLine.Option;

/** hpcc's sizing options: {@code bench} only (they mean nothing to {@code hpl}). */
final class HpccOptions {
  @Option(names = "--hpcc-n", paramLabel = "N")
  Long hpccN;

  @Option(names = "--hpcc-max-n", paramLabel = "N")
  long hpccMaxN = BenchSettings.Hpcc.DEFAULTS.maxN();

  @Option(names = "--memory-fraction", paramLabel = "F")
  double memoryFraction = BenchSettings.Hpcc.DEFAULTS.memoryFraction();
}
