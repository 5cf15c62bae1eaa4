package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PickersTest {
  static final String DIR = "/workspace/hpl-linux-x86_64/sample-dat/";
  static final List<String> SAMPLES =
      List.of(
          DIR + "HPL-1GPU.dat",
          DIR + "HPL-2GPUs.dat",
          DIR + "HPL-4GPUs.dat",
          DIR + "HPL-8GPUs.dat",
          DIR + "HPL-dgx-1N.dat",
          DIR + "HPL-dgx-2N.dat",
          DIR + "HPL-H100-1GPU.dat",
          DIR + "HPL-H200-8GPUs.dat",
          DIR + "HPL-H200-16GPUs.dat",
          DIR + "HPL-GH-32GPUs.dat",
          DIR + "README");

  @ParameterizedTest(name = "{1} x {0} -> {2}")
  @CsvSource({
    "'GPU 0: NVIDIA H200 (UUID: GPU-1b2c)',        16, HPL-H200-16GPUs.dat",
    "'GPU 0: NVIDIA H200 (UUID: GPU-1b2c)',        8,  HPL-H200-8GPUs.dat",
    "'NVIDIA H100 80GB HBM3',                       8,  HPL-8GPUs.dat",
    "'GPU 0: NVIDIA H100 80GB HBM3 (UUID: x)',      1,  HPL-H100-1GPU.dat",
    "'GPU 0: NVIDIA A100-SXM4-80GB (UUID: x)',      1,  HPL-1GPU.dat",
    "'NVIDIA A100-SXM4-80GB',                       16, HPL-dgx-2N.dat",
    "'GPU 0: NVIDIA GH200 480GB (UUID: x)',         32, HPL-GH-32GPUs.dat",
    "'',                                            4,  HPL-4GPUs.dat",
  })
  void picksTheSampleMadeForTheseGpus(String smi, int gpus, String expected) {
    DatPicker.Pick p = DatPicker.pick(SAMPLES, smi, gpus);
    assertThat(p.found()).as(p.reason()).isTrue();
    assertThat(p.file()).isEqualTo(DIR + expected);
    assertThat(p.reason()).startsWith(expected);
  }

  @Test
  void aSampleForAnotherModelIsNeverChosen() {
    // 16 H100: the only 16-GPU files are for H200 (too big for H100 memory) and dgx-2N.
    DatPicker.Pick p = DatPicker.pick(SAMPLES, "NVIDIA H100 80GB HBM3", 16);
    assertThat(p.file()).isEqualTo(DIR + "HPL-dgx-2N.dat");
    assertThat(p.reason()).contains("2 DGX node(s)").contains("no sample made for H100");
    DatPicker.Pick none = DatPicker.pick(List.of(DIR + "HPL-H200-16GPUs.dat"), "NVIDIA H100", 16);
    assertThat(none.found()).isFalse();
  }

  @Test
  void failureSaysWhyAndListsTheCandidates() {
    DatPicker.Pick p = DatPicker.pick(SAMPLES, "GPU 0: NVIDIA H100 (UUID: x)", 12);
    assertThat(p.found()).isFalse();
    assertThat(p.reason())
        .isEqualTo("no sample dat file for 12 GPUs (H100); write one and pass --dat FILE");
    assertThat(p.candidates()).isEqualTo(SAMPLES);
    assertThat(DatPicker.pick(List.of(), "NVIDIA H100", 8).reason())
        .isEqualTo("no sample dat files found in the container");
  }

  @Test
  void hplScriptAtThePackageRootWinsAcrossLayouts() {
    // 21.x-24.x: /workspace/hpl.sh; 25.x+: the same name links into hpl-linux-x86_64/
    HplScriptLocator.Pick p =
        HplScriptLocator.pick(
            List.of("/workspace/hpl-linux-x86_64/hpl.sh", "/workspace/hpl.sh"), "x86_64");
    assertThat(p.path()).isEqualTo("/workspace/hpl.sh");
    assertThat(
            HplScriptLocator.pick(List.of("/workspace/hpl-linux-x86_64/hpl.sh"), "x86_64").path())
        .isEqualTo("/workspace/hpl-linux-x86_64/hpl.sh");
    assertThat(
            HplScriptLocator.pick(
                    List.of("/workspace/cuda12/hpl.sh", "/workspace/cuda13/hpl.sh"), null)
                .path())
        .isEqualTo("/workspace/cuda13/hpl.sh");
    assertThat(
            HplScriptLocator.pick(
                    List.of(
                        "/workspace/hpl-aarch64.sh",
                        "/workspace/hpl-linux-aarch64/hpl.sh",
                        "/workspace/hpl-linux-aarch64-gpu/hpl.sh",
                        "/workspace/hpl-linux-x86_64/hpl.sh"),
                    "aarch64")
                .path())
        .isEqualTo("/workspace/hpl-linux-aarch64-gpu/hpl.sh");
    HplScriptLocator.Pick none = HplScriptLocator.pick(List.of("/workspace/hpcg.sh"), "x86_64");
    assertThat(none.found()).isFalse();
    assertThat(none.reason()).startsWith("no hpl.sh in the container");
  }

  @Test
  void hpccGridIsNearSquareWithPNotAboveQ() {
    assertThat(HpccInput.grid(1)).containsExactly(1, 1);
    assertThat(HpccInput.grid(2)).containsExactly(1, 2);
    assertThat(HpccInput.grid(4)).containsExactly(2, 2);
    assertThat(HpccInput.grid(6)).containsExactly(2, 3);
    assertThat(HpccInput.grid(7)).containsExactly(1, 7);
    assertThat(HpccInput.grid(8)).containsExactly(2, 4);
    assertThat(HpccInput.grid(12)).containsExactly(3, 4);
    assertThat(HpccInput.grid(64)).containsExactly(8, 8);
    assertThat(HpccInput.grid(96)).containsExactly(8, 12);
  }

  @Test
  void hpccSizesNFromMemoryAsAMultipleOfNb() {
    long gib = 1L << 30;
    HpccInput in = HpccInput.size(4 * gib, 8, 0.5, 192, 0);
    // sqrt(0.5 * 4 GiB / 8) = 16384 -> 16320 (multiple of 192)
    assertThat(in).isEqualTo(new HpccInput(16320, 192, 2, 4));
    assertThat(HpccInput.size(24 * gib, 2, 0.5, 80, 2000)).isEqualTo(new HpccInput(2000, 80, 1, 2));
    assertThatThrownBy(() -> HpccInput.size(1000, 4, 0.5, 192, 0))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("too small");
  }

  @Test
  void renderedHpccInputIsWhatHpccRanOn() {
    // The real fixture ran from Debian's example with two NBs; ours has the same layout and
    // the same values in the lines hpcc reads.
    String ours = new HpccInput(2000, 80, 1, 2).render();
    List<String> real = Fixtures.read("hpcc-np2-real.hpccinf.txt").lines().toList();
    List<String> mine = ours.lines().toList();
    assertThat(mine).hasSameSizeAs(real);
    for (int i : new int[] {4, 5, 9, 10, 11, 12}) {
      assertThat(mine.get(i).split("\\s+")[0])
          .as("line %d", i + 1)
          .isEqualTo(real.get(i).split("\\s+")[0]);
    }
    assertThat(mine.get(7).split("\\s+")[0]).isEqualTo("80");
  }
}
