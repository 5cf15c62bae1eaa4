package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.HpccInput;
import picocli.CommandLine.Option;

/** hpcc's sizing options: {@code bench} only (they mean nothing to {@code hpl}). */
final class HpccOptions {
  @Option(
      names = "--hpcc-n",
      paramLabel = "N",
      description = "hpcc: the HPL problem size N (default: sized from memory, see --hpcc-max-n).")
  Long hpccN;

  @Option(
      names = "--hpcc-max-n",
      paramLabel = "N",
      description =
          "hpcc: cap on the N sized from memory, so a default run takes seconds; 0 for no cap."
              + " Default: ${DEFAULT-VALUE}.")
  long hpccMaxN = BenchSettings.DEFAULT_HPCC_MAX_N;

  @Option(
      names = "--memory-fraction",
      paramLabel = "F",
      description =
          "hpcc: share of the nodes' memory (MemTotal of the head × nodes) the HPL matrix may take."
              + " Default: ${DEFAULT-VALUE}.")
  double memoryFraction = HpccInput.DEFAULT_MEMORY_FRACTION;
}
