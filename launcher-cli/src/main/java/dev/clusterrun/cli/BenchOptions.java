package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.HplDat;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options of {@code hpl} and {@code bench}: what the benchmark gets and what its result becomes.
 */
final class BenchOptions {
  @Option(names = "--dat", paramLabel = "FILE|auto")
  String dat;

  @Option(names = "--gpu-model", paramLabel = "MODEL")
  String gpuModel;

  @Option(names = "--nvshmem")
  boolean nvshmem;

  @Option(names = "--cpu-affinity", paramLabel = "LIST")
  String cpuAffinity;

  @Option(names = "--mem-affinity", paramLabel = "LIST")
  String memAffinity;

  @Option(names = "--gpu-affinity", paramLabel = "LIST")
  String gpuAffinity;

  @Option(names = "--hpl-arg", paramLabel = "ARG")
  List<String> scriptArgs;

  @Option(names = "--mpi-arg", paramLabel = "ARG")
  List<String> mpiArgs;

  /**
   * hpcc's sizing; {@code bench} takes these flags ({@link HpccOptions} as its mixin), {@code hpl}
   * keeps the defaults and does not show them.
   */
  HpccOptions hpcc = new HpccOptions();

  @Mixin JunitOption junit;

  @Option(names = "--baseline", paramLabel = "FILE")
  Path baseline;

  @Mixin MaxRegressionOption maxRegression;
  @Mixin ReferencesOption references;
  @Mixin ClusterOption cluster;
  @Mixin DryRunOption dryRun;

  /** These options as the core takes them. */
  BenchSettings toSettings() {
    return new BenchSettings(
        new BenchSettings.Hpl(dat == null ? null : HplDat.parse(dat), gpuModel, nvshmem),
        new BenchSettings.Scripts(cpuAffinity, memAffinity, gpuAffinity, scriptArgs),
        mpiArgs,
        new BenchSettings.Hpcc(hpcc.hpccN, hpcc.hpccMaxN, hpcc.memoryFraction),
        new BenchSettings.Reporting(
            junit.file, baseline, maxRegression.pct, references.file, cluster.name),
        dryRun.on);
  }
}
