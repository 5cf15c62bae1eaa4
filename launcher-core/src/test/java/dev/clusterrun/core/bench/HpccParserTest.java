package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HpccParserTest {
  private final HpccParser parser = new HpccParser();

  @Test
  void realOutputGivesSummaryFiguresAndTheEmbeddedHplRows() {
    BenchResult r = Fixtures.passed(parser, "hpcc-np2-real.hpccoutf.txt");
    assertThat(r.preset()).isEqualTo("hpcc");
    assertThat(r.headline().name()).isEqualTo("HPL");
    assertThat(r.headline().unit()).isEqualTo("Gflops");
    assertThat(r.headline().value()).isEqualTo(9.78027); // in decimal, not 9.780270000000001
    Fixtures.assertProblem(r, 2000L, 80, 1, 2);
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
  void successZeroFailsAndSaysSo() {
    String real = Fixtures.read("hpcc-np2-real.hpccoutf.txt");
    BenchResult r = parser.parse(real.replace("Success=1", "Success=0"));
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains("Success=0");
  }

  @Test
  void randomAccessErrorsWithinHpccsOnePercentPass() {
    // Real enroot, 3 nodes: "Found 362 errors in 524288 locations (passed)", Success=1; hpcc
    // allows up to 1 % of the table. The fixture carries the same fraction (edited, see README).
    BenchResult r = Fixtures.passed(parser, "hpcc-np2-edited-ra-errors-passed.hpccoutf.txt");
    assertThat(r.reason()).isNull();
    assertThat(r.metrics())
        .containsEntry("MPIRandomAccess_Errors", 1451.0)
        .containsEntry("MPIRandomAccess_ErrorsFraction", 0.000691891)
        .containsEntry("MPIRandomAccess_N", 2097152.0)
        .containsEntry("MPIRandomAccess_LCG_Errors", 217.0);
    assertThat(SummaryTable.lines(r)).first().isEqualTo("hpcc: PASSED");
    assertThat(SummaryTable.lines(r))
        .anyMatch(
            l ->
                l.matches(
                    "  MPIRandomAccess +1451 errors in 2097152 locations \\(0\\.0692 %; hpcc allows 1 %\\)"));
  }

  @Test
  void randomAccessErrorsAboveOnePercentFailAsHpccSays() {
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-edited-ra-errors-failed.hpccoutf.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason())
        .isEqualTo(
            "MPIRandomAccess: Found 31457 errors in 2097152 locations (failed): more than hpcc's"
                + " limit of 1 % of the table (1.5 %); hpcc's summary says Success=0");
  }

  @Test
  void aFailedLineFailsEvenWhenTheSummaryIsMissingIt() {
    // Each test's own line is hpcc's verdict for it; the summary's flag is the total.
    String edited =
        Fixtures.read("hpcc-np2-edited-ra-errors-failed.hpccoutf.txt")
            .replace("Success=0", "Success=1");
    BenchResult r = parser.parse(edited);
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason())
        .startsWith("MPIRandomAccess: Found 31457 errors")
        .doesNotContain("Success");
  }

  @Test
  void errorCountsAloneNeverDecide() {
    // A summary key with errors but hpcc's line and flag saying passed: hpcc passed it.
    String real = Fixtures.read("hpcc-np2-real.hpccoutf.txt");
    BenchResult r =
        parser.parse(real.replace("MPIRandomAccess_Errors=0", "MPIRandomAccess_Errors=12"));
    assertThat(r.verdict()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void otherFailedTestsAreNamedBySection() {
    String real = Fixtures.read("hpcc-np2-real.hpccoutf.txt");
    BenchResult ptrans =
        parser.parse(
            real.replace(
                "    0 tests completed and failed residual checks.",
                "    1 tests completed and failed residual checks."));
    assertThat(ptrans.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(ptrans.reason()).isEqualTo("PTRANS: 1 tests completed and failed residual checks.");
    BenchResult stream =
        parser.parse(
            real.replace(
                "Solution Validates: avg error less than 1.000000e-13 on all three arrays",
                "Failed Validation on array a[], AvgRelAbsErr > epsilon (1.000000e-13)"));
    assertThat(stream.reason()).startsWith("StarSTREAM: Failed Validation on array a[]");
  }

  @Test
  void truncatedFileIsAParseError() {
    BenchResult r = parser.parse(Fixtures.read("hpcc-np2-truncated.hpccoutf.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(r.reason()).contains("Summary section");
  }
}
