package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OtherParsersTest {
  @Test
  void hplMxpReportsGflopsPerGpuGridAndLuFigures() {
    BenchResult r = Fixtures.passed(new HplMxpParser(), "hpl-mxp-nvidia.txt");
    assertThat(r.headline()).isEqualTo(new Metric("HPL-MxP", 3.3316e+06, "Gflops"));
    assertThat(r.perGpu()).isEqualTo(416450.12);
    Fixtures.assertProblem(r, 380928L, 2048, 2, 4);
    assertThat(r.residual()).isEqualTo(1.260114E-05);
    assertThat(r.metrics())
        .containsEntry("lu_gflops", 3.7414e+06)
        .containsEntry("lu_seconds_max", 9.85);
  }

  @Test
  void hplMxpFailedResidualFails() {
    assertFailed(new HplMxpParser(), "hpl-mxp-nvidia-failed-edited.txt", "9.402117E+01");
  }

  @Test
  void hpcgReadsTheRatingAndRunDetails() {
    BenchResult r = new HpcgParser().parse(Fixtures.read("hpcg-reference-3.1.txt"));
    assertThat(r.headline()).isEqualTo(new Metric("HPCG", 12.4407, "GFLOP/s"));
    assertThat(r.timeSeconds()).isEqualTo(63.6012);
    assertThat(r.metrics()).containsEntry("processes", 8.0).containsEntry("global_nx", 208.0);
  }

  @Test
  void hpcgInvalidIsNotReadAsValid() {
    assertFailed(new HpcgParser(), "hpcg-invalid-edited.txt", "INVALID");
  }

  @Test
  void streamReferenceAndNvidiaUnits() {
    BenchResult ref = new StreamParser().parse(Fixtures.read("stream-reference.txt"));
    assertThat(ref.headline()).isEqualTo(new Metric("Triad", 153012.8, "MB/s"));
    assertThat(ref.metrics()).containsEntry("Copy", 141207.3).containsEntry("Add", 152770.4);
    BenchResult nv = Fixtures.passed(new StreamParser(), "stream-nvidia.txt");
    assertThat(nv.headline().unit()).isEqualTo("MB/s");
  }

  @Test
  void streamFailedValidationQuotesStream() {
    BenchResult r = new StreamParser().parse(Fixtures.read("stream-failed-edited.txt"));
    assertThat(r.reason()).startsWith("Failed Validation on array a[]");
  }

  @Test
  void streamOneTablePerGpuReportsTheWeakestTriad() {
    String one = Fixtures.read("stream-nvidia.txt");
    String two = one + one.replace("3100884.4496", "2900000.0");
    BenchResult r = new StreamParser().parse(two);
    assertThat(r.headline().value()).isEqualTo(2900000.0);
    assertThat(r.metrics()).containsEntry("Triad.max", 3100884.4496).containsEntry("tables", 2.0);
  }

  @Test
  void ncclReadsBusBandwidthTableAndDevices() {
    BenchResult r = Fixtures.passed(new NcclTestsParser(), "nccl-all-reduce.txt");
    assertThat(r.headline()).isEqualTo(new Metric("busbw", 55.8624, "GB/s"));
    assertThat(r.metrics())
        .containsEntry("sizes", 7.0)
        .containsEntry("peak_busbw", 103.68)
        .containsEntry("largest_size_bytes", 8589934592.0)
        .containsEntry("devices", 4.0)
        .containsEntry("wrong_values", 0.0);
  }

  @Test
  void ncclWrongValuesAndOutOfBoundsFail() {
    BenchResult wrong = new NcclTestsParser().parse(Fixtures.read("nccl-wrong-edited.txt"));
    assertThat(wrong.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(wrong.reason()).contains("17 wrong");
    String oob =
        Fixtures.read("nccl-all-reduce.txt")
            .replace("# Out of bounds values : 0 OK", "# Out of bounds values : 3 FAILED");
    assertThat(new NcclTestsParser().parse(oob).verdict()).isEqualTo(Verdict.FAILED);
  }

  /** The parser finds the fixture's run FAILED, its reason containing {@code why}. */
  private static void assertFailed(BenchParser parser, String fixture, String why) {
    BenchResult r = parser.parse(Fixtures.read(fixture));
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains(why);
  }
}
