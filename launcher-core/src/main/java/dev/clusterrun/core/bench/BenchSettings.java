package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.Carry;
import dev.clusterrun.core.spec.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code hpl} and {@code bench} were asked beyond the job: the benchmark's inputs and what
 * becomes of its result.
 *
 * @param mpiArgs more words for mpirun ({@code --mpi-arg}), or null
 * @param dryRun print the plan and touch no node
 */
public record BenchSettings(
    Hpl hpl,
    Scripts scripts,
    List<String> mpiArgs,
    Hpcc hpcc,
    Reporting reporting,
    boolean dryRun) {

  // Measured with 3 ranks on a 2-core VM (hpcc sizes its RandomAccess table from N too): N=4032
  // 70 s and N=2016 11 s on a quiet machine; under a load average of 8, N=1920 took 167 s and
  // N=960 9.5 s. The default keeps a CI run well under a minute on a busy machine.
  public static final long DEFAULT_HPCC_MAX_N = 1000;
  public static final double DEFAULT_MAX_REGRESSION = 5;

  /**
   * NVIDIA HPL's own inputs.
   *
   * @param dat {@code --dat}, or null when not given ({@code auto})
   * @param gpuModel {@code --gpu-model} for {@code --dat auto}, or null (nvidia-smi on the nodes)
   * @param nvshmem let NVIDIA HPL use NVSHMEM
   */
  public record Hpl(HplDat dat, String gpuModel, boolean nvshmem) {
    /** The dat choice: the one given, else {@code auto}. */
    public HplDat datOrAuto() {
      return dat == null ? HplDat.AUTO : dat;
    }
  }

  /** Words for NVIDIA's launcher scripts (hpl.sh, hpl-mxp.sh, hpcg.sh, stream-gpu-test.sh). */
  public record Scripts(
      String cpuAffinity, String memAffinity, String gpuAffinity, List<String> args) {
    /** The words in the order the scripts get them; those not given are left out. */
    public List<String> words() {
      List<String> pt = new ArrayList<>();
      if (cpuAffinity != null) {
        pt.add("--cpu-affinity");
        pt.add(cpuAffinity);
      }
      if (memAffinity != null) {
        pt.add("--mem-affinity");
        pt.add(memAffinity);
      }
      if (gpuAffinity != null) {
        pt.add("--gpu-affinity");
        pt.add(gpuAffinity);
      }
      if (args != null) {
        pt.addAll(args);
      }
      return pt;
    }
  }

  /**
   * hpcc's sizing.
   *
   * @param n the HPL problem size N, or null to size it from memory
   * @param maxN cap on the N sized from memory (0: no cap)
   * @param memoryFraction share of the nodes' memory the matrix may take
   */
  public record Hpcc(Long n, long maxN, double memoryFraction) {
    public static final Hpcc DEFAULTS =
        new Hpcc(null, DEFAULT_HPCC_MAX_N, HpccInput.DEFAULT_MEMORY_FRACTION);
  }

  /**
   * What becomes of the result besides {@code results.json} and the results log.
   *
   * @param junit a JUnit XML report to write, or null
   * @param baseline a previous {@code results.json} to hold the headline against, or null
   * @param maxRegression how far the headline may fall below the baseline, percent; null for the
   *     default
   * @param references expected values (YAML), or null
   * @param cluster the cluster's name in references and reports, or null for the hostfile's name
   */
  public record Reporting(
      Path junit, Path baseline, Double maxRegression, Path references, String cluster) {}

  /** The flags that do not apply to {@code preset}, or hold values it cannot take: bad input. */
  public void validate(BenchPreset preset, JobSpec flags) {
    String id = preset.id();
    // Each becomes one argument of a program: Linux's limit for one, named by the flag.
    word("--cpu-affinity", scripts.cpuAffinity());
    word("--mem-affinity", scripts.memAffinity());
    word("--gpu-affinity", scripts.gpuAffinity());
    for (String a : scripts.args() == null ? List.<String>of() : scripts.args()) {
      word("--hpl-arg", a);
    }
    for (String a : mpiArgs == null ? List.<String>of() : mpiArgs) {
      word("--mpi-arg", a);
    }
    if (preset != BenchPreset.HPL) {
      only(hpl.dat() != null, "--dat", id, "hpl");
      only(hpl.gpuModel() != null, "--gpu-model", id, "hpl");
      only(hpl.nvshmem(), "--nvshmem", id, "hpl");
    }
    if (preset == BenchPreset.NCCL || preset == BenchPreset.HPCC) {
      String names = "hpl, hpl-mxp, hpcg and stream (NVIDIA's launcher scripts)";
      only(scripts.cpuAffinity() != null, "--cpu-affinity", id, names);
      only(scripts.memAffinity() != null, "--mem-affinity", id, names);
      only(scripts.gpuAffinity() != null, "--gpu-affinity", id, names);
      only(scripts.args() != null, "--hpl-arg", id, names);
    }
    if (preset != BenchPreset.HPCC) {
      only(hpcc.n() != null, "--hpcc-n", id, "hpcc");
      only(hpcc.maxN() != DEFAULT_HPCC_MAX_N, "--hpcc-max-n", id, "hpcc");
      only(
          hpcc.memoryFraction() != HpccInput.DEFAULT_MEMORY_FRACTION,
          "--memory-fraction",
          id,
          "hpcc");
    } else {
      validateHpcc(flags);
    }
    validateReporting();
    if (hpl.gpuModel() != null && DatPicker.modelProblem(hpl.gpuModel()) != null) {
      throw new BadInputException("--gpu-model", DatPicker.modelProblem(hpl.gpuModel()));
    }
    if (hpl.dat() != null && !hpl.dat().auto()) {
      validateDat(hpl.dat().file());
    }
  }

  private static void word(String flag, String value) {
    if (value != null) {
      BadInputException.about(flag, () -> Carry.word(value));
    }
  }

  private void validateHpcc(JobSpec flags) {
    if (flags.container() != null && flags.container().workdir() != null) {
      throw new BadInputException(
          "--container-workdir",
          "hpcc runs in its run directory (it reads hpccinf.txt and writes hpccoutf.txt there);"
              + " leave it out");
    }
    if (hpcc.n() != null && hpcc.n() < 1) {
      throw new BadInputException("--hpcc-n", "must be at least 1, got " + hpcc.n());
    }
    if (hpcc.maxN() < 0) {
      throw new BadInputException("--hpcc-max-n", "must be 0 (no cap) or more");
    }
    if (!(hpcc.memoryFraction() > 0 && hpcc.memoryFraction() <= 1)) {
      throw new BadInputException("--memory-fraction", "must be in (0, 1]");
    }
  }

  private void validateReporting() {
    if (reporting.cluster() != null && References.clusterNameProblem(reporting.cluster()) != null) {
      throw new BadInputException("--cluster", References.clusterNameProblem(reporting.cluster()));
    }
    if (reporting.maxRegression() != null && reporting.baseline() == null) {
      throw new BadInputException(
          "--max-regression", "needs --baseline FILE (the results.json to compare with)");
    }
    if (reporting.junit() != null && Files.isDirectory(reporting.junit())) {
      throw new BadInputException(
          "--junit", reporting.junit() + " is a directory; give a file name");
    }
  }

  private static void validateDat(String dat) {
    Path p = Path.of(dat);
    if (Files.isDirectory(p)) {
      throw new BadInputException("--dat", dat + " is a directory; give an HPL.dat file or `auto`");
    }
    if (!Files.isRegularFile(p)) {
      throw new BadInputException(
          "--dat", "no such file: " + dat + " (give an HPL.dat file or `auto`)");
    }
    if (!Files.isReadable(p)) {
      throw new BadInputException("--dat", "cannot read " + dat);
    }
  }

  private static void only(boolean given, String flag, String preset, String forWhat) {
    if (given) {
      throw new BadInputException(flag, "only for " + forWhat + ", not " + preset);
    }
  }

  /** The baseline gate: {@code --max-regression}, or the default. */
  public BaselineGate gate() {
    double pct =
        reporting.maxRegression() == null ? DEFAULT_MAX_REGRESSION : reporting.maxRegression();
    try {
      return new BaselineGate(pct);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--max-regression", e.getMessage());
    }
  }

  /** What the preset's command is made from, before the nodes are asked anything. */
  PresetOptions presetOptions(List<String> extraArgs) {
    return PresetOptions.defaults()
        .withNvshmem(hpl.nvshmem())
        .withPassThrough(scripts.words())
        .withExtraArgs(extraArgs);
  }
}
