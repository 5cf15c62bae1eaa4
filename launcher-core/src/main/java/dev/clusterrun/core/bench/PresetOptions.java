package dev.clusterrun.core.bench;

import java.util.List;

/**
 * What a user chose for a preset run; every field may be left at its default.
 *
 * @param hplScript path of {@code hpl.sh} in the container (see {@link HplScriptLocator}); null for
 *     {@code /workspace/hpl.sh}
 * @param dat HPL input file in the container (see {@link DatPicker}); required for {@code hpl}
 * @param passThrough options handed to the launcher script unchanged, e.g. {@code --cpu-affinity
 *     0-31:32-63 --gpu-affinity 0:1 --mem-affinity 0:1}
 * @param nvshmem whether NVIDIA HPL may use NVSHMEM (off unless the fabric supports it)
 * @param extraArgs arguments replacing the preset's default benchmark arguments (HPCG sizes, STREAM
 *     device, nccl-tests sizes, HPL-MxP's {@code --n --nb --nprow --npcol})
 * @param hpccInput the generated {@code hpccinf.txt} for {@code hpcc}
 */
public record PresetOptions(
    String hplScript,
    String dat,
    List<String> passThrough,
    boolean nvshmem,
    List<String> extraArgs,
    HpccInput hpccInput) {
  public PresetOptions {
    passThrough = passThrough == null ? List.of() : List.copyOf(passThrough);
    extraArgs = extraArgs == null ? List.of() : List.copyOf(extraArgs);
  }

  public static PresetOptions defaults() {
    return new PresetOptions(null, null, List.of(), false, List.of(), null);
  }

  public PresetOptions withDat(String value) {
    return new PresetOptions(hplScript, value, passThrough, nvshmem, extraArgs, hpccInput);
  }

  public PresetOptions withHplScript(String value) {
    return new PresetOptions(value, dat, passThrough, nvshmem, extraArgs, hpccInput);
  }

  public PresetOptions withPassThrough(List<String> value) {
    return new PresetOptions(hplScript, dat, value, nvshmem, extraArgs, hpccInput);
  }

  public PresetOptions withNvshmem(boolean value) {
    return new PresetOptions(hplScript, dat, passThrough, value, extraArgs, hpccInput);
  }

  public PresetOptions withExtraArgs(List<String> value) {
    return new PresetOptions(hplScript, dat, passThrough, nvshmem, value, hpccInput);
  }

  public PresetOptions withHpccInput(HpccInput value) {
    return new PresetOptions(hplScript, dat, passThrough, nvshmem, extraArgs, value);
  }
}
