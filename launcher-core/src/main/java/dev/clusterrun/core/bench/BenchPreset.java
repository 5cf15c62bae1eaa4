package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.EnumWords;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The benchmarks {@code clusterrun hpl} and {@code clusterrun bench PRESET} know: for each, the
 * default image, the command words run under mpirun inside the container, the environment, where
 * the output to parse is, and the parser.
 */
public enum BenchPreset {
  HPL(
      "NVIDIA HPL (double precision Linpack) via hpl.sh --dat",
      HpcBenchmarks.IMAGE,
      new HplParser()),
  HPL_MXP(
      "NVIDIA HPL-MxP (mixed precision) via hpl-mxp.sh", HpcBenchmarks.IMAGE, new HplMxpParser()),
  HPCG("NVIDIA HPCG via hpcg.sh", HpcBenchmarks.IMAGE, new HpcgParser()),
  STREAM(
      "NVIDIA STREAM (GPU memory bandwidth) via stream-gpu-test.sh",
      HpcBenchmarks.IMAGE,
      new StreamParser()),
  NCCL("nccl-tests all_reduce_perf bus bandwidth", null, new NcclTestsParser()),
  HPCC("HPC Challenge (Debian's hpcc, CPU only)", null, new HpccParser());

  /** NVIDIA's benchmark container, as enroot names it. */
  public static final class HpcBenchmarks {
    private HpcBenchmarks() {}

    public static final String IMAGE = "nvcr.io#nvidia/hpc-benchmarks:25.04";
    public static final String HPL_SH = "/workspace/hpl.sh";
    public static final String HPL_MXP_SH = "/workspace/hpl-mxp.sh";
    public static final String HPCG_SH = "/workspace/hpcg.sh";
    public static final String STREAM_SH = "/workspace/stream-gpu-test.sh";
  }

  private final String description;
  private final String defaultImage;
  private final BenchParser parser;

  BenchPreset(String description, String defaultImage, BenchParser parser) {
    this.description = description;
    this.defaultImage = defaultImage;
    this.parser = parser;
  }

  /** The name on the command line ({@code hpl}, {@code hpl-mxp}, …). */
  public String id() {
    return EnumWords.word(this);
  }

  public String description() {
    return description;
  }

  /**
   * The image used when none is given. Empty for {@code nccl} (no NVIDIA image ships the nccl-tests
   * binaries) and {@code hpcc} (no public image ships Debian's hpcc): those need {@code --image}.
   */
  public Optional<String> defaultImage() {
    return Optional.ofNullable(defaultImage);
  }

  public BenchParser parser() {
    return parser;
  }

  /**
   * The file (relative to the working directory) holding the output to parse, or empty when the
   * output is the job's stdout. hpcc writes {@code hpccoutf.txt} in its working directory.
   */
  public Optional<String> outputFile() {
    return this == HPCC ? Optional.of(HpccParser.OUTPUT_FILE) : Optional.empty();
  }

  /**
   * Files to write into the working directory before the run (name → content): hpcc's {@code
   * hpccinf.txt}.
   *
   * @throws BadInputException when hpcc has no input
   */
  public Map<String, String> inputFiles(PresetOptions o) {
    if (this != HPCC) {
      return Map.of();
    }
    if (o.hpccInput() == null) {
      throw new BadInputException("hpcc", "no hpccinf.txt input (size it with HpccInput.size)");
    }
    return Map.of(HpccInput.FILE_NAME, o.hpccInput().render());
  }

  /**
   * The command each MPI rank runs inside the container, as words.
   *
   * @throws BadInputException when a required choice is missing (the dat file for hpl, the problem
   *     size for hpl-mxp)
   */
  public List<String> command(PresetOptions o) {
    List<String> argv = new ArrayList<>();
    switch (this) {
      case HPL -> {
        if (o.dat() == null || o.dat().isBlank()) {
          throw new BadInputException("--dat", "hpl needs an input file: --dat FILE or --dat auto");
        }
        argv.add(o.hplScript() == null ? HpcBenchmarks.HPL_SH : o.hplScript());
        argv.add("--dat");
        argv.add(o.dat());
        argv.addAll(o.passThrough());
        argv.addAll(o.extraArgs());
      }
      case HPL_MXP -> {
        for (String needed : List.of("--n", "--nb", "--nprow", "--npcol")) {
          if (!o.extraArgs().contains(needed)) {
            throw new BadInputException(
                "hpl-mxp",
                "needs the problem as arguments: --n N --nb NB --nprow P --npcol Q (missing "
                    + needed
                    + ")");
          }
        }
        argv.add(HpcBenchmarks.HPL_MXP_SH);
        argv.addAll(o.extraArgs());
        argv.addAll(o.passThrough());
      }
      case HPCG -> {
        argv.add(HpcBenchmarks.HPCG_SH);
        argv.addAll(
            o.extraArgs().isEmpty()
                ? List.of("--nx", "256", "--ny", "256", "--nz", "256", "--rt", "60")
                : o.extraArgs());
        argv.addAll(o.passThrough());
      }
      case STREAM -> {
        argv.add(HpcBenchmarks.STREAM_SH);
        argv.addAll(o.extraArgs());
        argv.addAll(o.passThrough());
      }
      case NCCL -> {
        argv.add("all_reduce_perf");
        argv.addAll(
            o.extraArgs().isEmpty()
                ? List.of("-b", "8", "-e", "8G", "-f", "2", "-g", "1")
                : o.extraArgs());
      }
      case HPCC -> {
        argv.add("hpcc");
        argv.addAll(o.extraArgs());
      }
    }
    return List.copyOf(argv);
  }

  /**
   * Environment for the ranks. NVIDIA HPL gets {@code HPL_USE_NVSHMEM=0} unless NVSHMEM is enabled:
   * NVSHMEM needs GPUDirect RDMA and fails on plain Ethernet.
   */
  public Map<String, String> environment(PresetOptions o) {
    Map<String, String> env = new LinkedHashMap<>();
    if (this == HPL && !o.nvshmem()) {
      env.put("HPL_USE_NVSHMEM", "0");
    }
    return env;
  }

  /** Looks a preset up by its command-line name. */
  public static BenchPreset byId(String name) {
    return EnumWords.byWord(values(), name)
        .orElseThrow(
            () -> {
              String known =
                  Arrays.stream(values()).map(BenchPreset::id).collect(Collectors.joining(", "));
              return new BadInputException(
                  "PRESET", "unknown preset '" + name + "'; known: " + known);
            });
  }

  public static List<String> ids() {
    return Arrays.stream(values()).map(BenchPreset::id).toList();
  }
}
