package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HplParserTest {
  private final HplParser parser = new HplParser();

  @Test
  void nvidiaOutputKeepsAllRowsAndSummarisesTheBestWithItsPerGpuValue() {
    BenchResult r = Fixtures.passed(parser, "hpl-nvidia-2nodes.txt");
    assertThat(r.rows()).hasSize(2);
    assertThat(r.rows()).allMatch(x -> x.variant().equals("WC0") && x.residualPassed());
    assertThat(r.headline()).isEqualTo(new Metric("HPL", 5.749e+05, "Gflops"));
    assertThat(r.perGpu()).isEqualTo(3.593e+04);
    Fixtures.assertProblem(r, 376832L, 1024, 4, 4);
    assertThat(r.timeSeconds()).isEqualTo(61.97);
    assertThat(r.residual()).isEqualTo(0.000398164210);
    assertThat(r.testsPassed()).isEqualTo(2);
    assertThat(r.testsFailed()).isZero();
    assertThat(r.testsSkipped()).isZero();
  }

  @Test
  void realNetlibOutputFromHpccHasNoPerGpuColumn() {
    BenchResult r = Fixtures.passed(parser, "hpl-netlib-real-from-hpcc.txt");
    assertThat(r.rows()).extracting(HplRow::nb).containsExactly(80, 128);
    assertThat(r.rows()).extracting(HplRow::variant).containsOnly("WR11C2R4");
    assertThat(r.headline().value()).isEqualTo(9.780);
    assertThat(r.perGpu()).isNull();
    assertThat(r.nb()).isEqualTo(80);
    assertThat(r.residual()).isEqualTo(0.0064451);
  }

  @Test
  void aFailedResidualFailsTheRunEvenWhenItsRowHasTheBestGflops() {
    BenchResult r = parser.parse(Fixtures.read("hpl-netlib-failed-edited.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason())
        .contains("residual check FAILED for N=2000 NB=128")
        .contains("231.8046211");
    assertThat(r.testsFailed()).isEqualTo(1);
  }

  @Test
  void aFailedResidualInTruncatedOutputIsStillFailedNotAParseError() {
    String full = Fixtures.read("hpl-netlib-failed-edited.txt");
    String cut = full.substring(0, full.indexOf("Finished"));
    assertThat(parser.parse(cut).verdict()).isEqualTo(Verdict.FAILED);
  }

  @Test
  void aSummarySayingPassedCannotOverrideAFailedResidualLine() {
    String forged =
        Fixtures.read("hpl-netlib-failed-edited.txt")
            .replace("1 tests completed and passed", "2 tests completed and passed")
            .replace("1 tests completed and failed", "0 tests completed and failed");
    assertThat(parser.parse(forged).verdict()).isEqualTo(Verdict.FAILED);
  }

  @Test
  void outputCutBeforeTheSummaryIsAParseErrorSayingSo() {
    BenchResult r = parser.parse(Fixtures.read("hpl-nvidia-truncated.txt"));
    assertThat(r.verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(r.reason()).contains("cut short");
    assertThat(r.rows()).hasSize(1);
  }

  @Test
  void allTestsSkippedIsAFailure() {
    String out =
        """
        Finished      1 tests with the following results:
                      0 tests completed and passed residual checks,
                      0 tests completed and failed residual checks,
                      1 tests skipped because of illegal input values.
        """;
    String withRow =
        "WR11C2R4        2000    80     1     2               0.55              9.780e+00\n" + out;
    BenchResult r = parser.parse(withRow);
    assertThat(r.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(r.reason()).contains("skipped because of illegal input values");
  }

  @Test
  void nanGflopsIsAFailure() {
    String out = Fixtures.read("hpl-netlib-real-from-hpcc.txt").replace("9.780e+00", "      nan");
    assertThat(parser.parse(out).verdict()).isEqualTo(Verdict.FAILED);
  }
}
