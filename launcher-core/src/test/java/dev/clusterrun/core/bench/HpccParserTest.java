package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HpccParserTest {
  private final HpccParser parser = new HpccParser();

  @Test
  void realOutputGivesSummaryFiguresAndTheEmbeddedHplRows() {
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-real.hpccoutf.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(r.preset()).isEqualTo("hpcc");
    assertThat(r.headline().name()).isEqualTo("HPL");
    assertThat(r.headline().unit()).isEqualTo("Gflops");
    assertThat(r.headline().value()).isCloseTo(9.78027, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.n()).isEqualTo(2000L);
    assertThat(r.nb()).isEqualTo(80);
    assertThat(r.p()).isEqualTo(1);
    assertThat(r.q()).isEqualTo(2);
    assertThat(r.timeSeconds()).isEqualTo(0.545929);
    assertThat(r.residual()).isEqualTo(0.0064451);
    assertThat(r.rows()).hasSize(2);
    assertThat(r.testsPassed()).isEqualTo(2);
    assertThat(r.metrics())
        .containsEntry("StarSTREAM_Triad", 43.2749)
        .containsEntry("PTRANS_GBs", 5.5517)
        .containsEntry("MPIRandomAccess_GUPs", 0.0570096)
        .containsEntry("HPL_Tflops", 0.00978027)
        .containsEntry("CommWorldProcs", 2.0)
        .doesNotContainKey("sizeof_char");
  }

  @Test
  void theEditedFailedResidualFailsTheWholeRun() {
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-edited-failed.hpccoutf.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).startsWith("HPL: residual check FAILED for N=2000 NB=80");
  }

  @Test
  void ptransResidualCountsAreNotMistakenForHpl() {
    // PTRANS prints "10 tests completed and passed residual checks." too; only HPL's count.
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-real.hpccoutf.txt"));
    assertThat(r.testsPassed()).isEqualTo(2);
  }

  @Test
  void successZeroOrRandomAccessErrorsFail() {
    String real = Fixtures.read("hpcc-np2-real.hpccoutf.txt");
    assertThat(parser.parse(real.replace("Success=1", "Success=0")).reason()).contains("Success=0");
    BenchResult ra =
        parser.parse(real.replace("MPIRandomAccess_Errors=0", "MPIRandomAccess_Errors=12"));
    assertThat(ra.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(ra.reason()).contains("MPIRandomAccess_Errors=12");
  }

  @Test
  void truncatedFileIsAParseError() {
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-truncated.hpccoutf.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(r.reason()).contains("Summary section");
  }
}
