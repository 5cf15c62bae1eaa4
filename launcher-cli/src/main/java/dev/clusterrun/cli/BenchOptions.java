package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchSettings;
import dev.clusterrun.core.bench.HplDat;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Options of {@code hpl} and {@code bench}: what the benchmark gets and what its result becomes.
 */
final class BenchOptions {
  @Option(
      names = "--dat",
      paramLabel = "FILE|auto",
      description =
          "HPL input: a local file (copied into the run directory) or `auto` (NVIDIA's sample for the"
              + " GPU model and count, picked from the files in the container). hpl only.")
  String dat;

  @Option(
      names = "--gpu-model",
      paramLabel = "MODEL",
      description =
          "GPU model for --dat auto, e.g. H200 (default: nvidia-smi -L on the nodes; needed for a"
              + " dry run to name the file).")
  String gpuModel;

  @Option(
      names = "--nvshmem",
      description =
          "Let NVIDIA HPL use NVSHMEM (needs GPUDirect RDMA); by default every rank gets"
              + " HPL_USE_NVSHMEM=0. hpl only.")
  boolean nvshmem;

  @Option(
      names = "--cpu-affinity",
      paramLabel = "LIST",
      description = "Passed to the launcher script (hpl.sh …) as --cpu-affinity LIST.")
  String cpuAffinity;

  @Option(
      names = "--mem-affinity",
      paramLabel = "LIST",
      description = "Passed to the launcher script as --mem-affinity LIST.")
  String memAffinity;

  @Option(
      names = "--gpu-affinity",
      paramLabel = "LIST",
      description = "Passed to the launcher script as --gpu-affinity LIST.")
  String gpuAffinity;

  @Option(
      names = "--hpl-arg",
      paramLabel = "ARG",
      description =
          "One more word for the launcher script (hpl.sh, hpl-mxp.sh, hpcg.sh,"
              + " stream-gpu-test.sh), repeatable; write --hpl-arg=--flag for words starting with -.")
  List<String> scriptArgs;

  @Option(
      names = "--mpi-arg",
      paramLabel = "ARG",
      description =
          "One more word for mpirun, before the program; repeatable; write --mpi-arg=--flag for"
              + " words starting with -.")
  List<String> mpiArgs;

  /**
   * hpcc's sizing; {@code bench} takes these flags ({@link HpccOptions} as its mixin), {@code hpl}
   * keeps the defaults and does not show them.
   */
  HpccOptions hpcc = new HpccOptions();

  @Option(
      names = "--junit",
      paramLabel = "FILE",
      description = "Write a JUnit XML report of the result (and the baseline comparison) here.")
  Path junit;

  @Option(
      names = "--baseline",
      paramLabel = "FILE",
      description = "A previous results.json to compare the headline with (see --max-regression).")
  Path baseline;

  @Option(
      names = "--max-regression",
      paramLabel = "PCT",
      description =
          "With --baseline: fail (exit 1) when the headline fell by more than PCT percent."
              + " Default: "
              + BenchSettings.DEFAULT_MAX_REGRESSION
              + ".")
  Double maxRegression;

  @Option(
      names = "--references",
      paramLabel = "FILE",
      description =
          "Expected values with tolerances per cluster, preset and size (YAML, see"
              + " docs/benchmarks.md): exit 1 when a metric lies outside its reference.")
  Path references;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description =
          "The cluster's name in references and reports (default: the hostfile's file name"
              + " without extension).")
  String cluster;

  @Option(
      names = "--dry-run",
      description = "Print the plan and touch no node (placeholders for what only the nodes know).")
  boolean dryRun;

  /** These options as the core takes them. */
  BenchSettings toSettings() {
    return new BenchSettings(
        new BenchSettings.Hpl(dat == null ? null : HplDat.parse(dat), gpuModel, nvshmem),
        new BenchSettings.Scripts(cpuAffinity, memAffinity, gpuAffinity, scriptArgs),
        mpiArgs,
        new BenchSettings.Hpcc(hpcc.hpccN, hpcc.hpccMaxN, hpcc.memoryFraction),
        new BenchSettings.Reporting(junit, baseline, maxRegression, references, cluster),
        dryRun);
  }
}
