package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchPresetTest {
  @Test
  void hplCommandEnvAndImage() {
    PresetOptions o =
        PresetOptions.defaults()
            .withDat("/workspace/hpl-linux-x86_64/sample-dat/HPL-8GPUs.dat")
            .withPassThrough(List.of("--gpu-affinity", "0:1:2:3:4:5:6:7"));
    assertThat(BenchPreset.HPL.command(o))
        .containsExactly(
            "/workspace/hpl.sh",
            "--dat",
            "/workspace/hpl-linux-x86_64/sample-dat/HPL-8GPUs.dat",
            "--gpu-affinity",
            "0:1:2:3:4:5:6:7");
    assertThat(BenchPreset.HPL.environment(o))
        .containsExactly(java.util.Map.entry("HPL_USE_NVSHMEM", "0"));
    assertThat(BenchPreset.HPL.environment(o.withNvshmem(true))).isEmpty();
    assertThat(BenchPreset.HPL.defaultImage()).contains("nvcr.io#nvidia/hpc-benchmarks:25.04");
    assertThat(BenchPreset.HPL.outputFile()).isEmpty();
    assertThat(BenchPreset.HPL.command(o.withHplScript("/workspace/cuda12/hpl.sh")).get(0))
        .isEqualTo("/workspace/cuda12/hpl.sh");
    assertThatThrownBy(() -> BenchPreset.HPL.command(PresetOptions.defaults()))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--dat:");
  }

  @Test
  void hpccRunsInAWorkdirWithGeneratedInputAndReadsItsOutputFile() {
    PresetOptions o = PresetOptions.defaults().withHpccInput(new HpccInput(2000, 80, 1, 2));
    assertThat(BenchPreset.HPCC.command(o)).containsExactly("hpcc");
    assertThat(BenchPreset.HPCC.outputFile()).contains("hpccoutf.txt");
    assertThat(BenchPreset.HPCC.inputFiles(o)).containsOnlyKeys("hpccinf.txt");
    assertThat(BenchPreset.HPCC.defaultImage()).isEmpty();
    assertThat(BenchPreset.HPCC.parser()).isInstanceOf(HpccParser.class);
    assertThatThrownBy(() -> BenchPreset.HPCC.inputFiles(PresetOptions.defaults()))
        .isInstanceOf(BadInputException.class);
  }

  @Test
  void otherPresets() {
    assertThat(BenchPreset.NCCL.command(PresetOptions.defaults()))
        .containsExactly("all_reduce_perf", "-b", "8", "-e", "8G", "-f", "2", "-g", "1");
    assertThat(BenchPreset.HPCG.command(PresetOptions.defaults()).get(0))
        .isEqualTo("/workspace/hpcg.sh");
    assertThat(
            BenchPreset.STREAM.command(PresetOptions.defaults().withExtraArgs(List.of("--d", "0"))))
        .containsExactly("/workspace/stream-gpu-test.sh", "--d", "0");
    assertThatThrownBy(() -> BenchPreset.HPL_MXP.command(PresetOptions.defaults()))
        .hasMessageContaining("--n N --nb NB --nprow P --npcol Q");
    List<String> mxp =
        List.of(
            "--n", "380928", "--nb", "2048", "--nprow", "2", "--npcol", "4", "--nporder", "row");
    assertThat(BenchPreset.HPL_MXP.command(PresetOptions.defaults().withExtraArgs(mxp)))
        .startsWith("/workspace/hpl-mxp.sh", "--n", "380928");
  }

  @Test
  void lookUpByNameListsTheKnownOnes() {
    assertThat(BenchPreset.byId("hpl-mxp")).isEqualTo(BenchPreset.HPL_MXP);
    assertThat(BenchPreset.ids())
        .containsExactly("hpl", "hpl-mxp", "hpcg", "stream", "nccl", "hpcc");
    assertThatThrownBy(() -> BenchPreset.byId("linpack"))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "PRESET: unknown preset 'linpack'; known: hpl, hpl-mxp, hpcg, stream, nccl, hpcc");
  }
}
