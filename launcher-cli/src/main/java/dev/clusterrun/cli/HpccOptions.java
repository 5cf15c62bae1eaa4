package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.HpccInput;
import picocli.CommandLine.Option;

/** hpcc's sizing options: {@code bench} only (they mean nothing to {@code hpl}). */
final class HpccOptions {
  @Option(names = "--hpcc-n", paramLabel = "N")
  Long hpccN;

  @Option(names = "--hpcc-max-n", paramLabel = "N")
  long hpccMaxN = BenchSettings.DEFAULT_HPCC_MAX_N;

  @Option(names = "--memory-fraction", paramLabel = "F")
  double memoryFraction = HpccInput.DEFAULT_MEMORY_FRACTION;
}
