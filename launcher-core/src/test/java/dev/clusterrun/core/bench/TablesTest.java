package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablesTest {
  @Test
  void summaryOfAnNvidiaHplRun() {
    BenchResult r = Fixtures.nvidiaHpl2Nodes(null, null);
    assertThat(SummaryTable.lines(r))
        .containsExactly(
            "hpl: PASSED",
            "  N               376832",
            "  NB              1024",
            "  P x Q           4 x 4",
            "  Time            61.97 s",
            "  Gflops          574900",
            "  Gflops per GPU  35930",
            "  Residual        0.000398164 (PASSED)",
            "  Tests           2 passed, 0 failed, 0 skipped",
            "  Nodes           2: node1, node2",
            "  Ranks / GPUs    16 / 16",
            "  Image           docker://nvcr.io#nvidia/hpc-benchmarks:25.04");
  }

  @Test
  void summaryOfAFailedRunLeadsWithTheReason() {
    BenchResult r = new HplParser().parse(Fixtures.read("hpl-netlib-failed-edited.txt"));
    List<String> lines = SummaryTable.lines(r);
    assertThat(lines.get(0)).startsWith("hpl: FAILED: residual check FAILED for N=2000 NB=128");
    assertThat(lines).contains("  Residual        231.805 (FAILED in 1 of 2 rows)");
    assertThat(lines).contains("  Gflops per GPU  -");
  }

  @Test
  void summaryOfStreamUsesItsOwnUnit() {
    BenchResult r = new StreamParser().parse(Fixtures.read("stream-reference.txt"));
    assertThat(SummaryTable.lines(r))
        .contains("  Triad  153013 MB/s")
        .noneMatch(l -> l.contains("P x Q"));
  }

  @Test
  void resultsTableListsRunsSideBySide() {
    BenchResult a = ResultsJsonTest.sample().withOrigin("ci", "20261121-055400-hpcc-1a2b", null);
    BenchResult b =
        BenchResult.parseError("hpl", "the output is empty")
            .withRun(List.of("x"), 8, 8, "img", Instant.parse("2026-11-22T10:00:00Z"), null);
    List<String> lines = ResultsTable.lines(List.of(a, b));
    assertThat(lines)
        .containsExactly(
            "#  STARTED            CLUSTER  PRESET  VERDICT      RESULT          PER GPU  N     NB  PxQ  NODES  RUN                        IMAGE",
            "1  2026-11-21 05:54Z  ci       hpcc    PASSED       9.78027 Gflops  -        2000  80  1x2  2      20261121-055400-hpcc-1a2b  docker://debian-hpcc:12",
            "2  2026-11-22 10:00Z  -        hpl     PARSE_ERROR  -               -        -     -   -    1      -                          img");
    assertThat(ResultsTable.lines(List.of())).last().isEqualTo("(no runs recorded yet)");
  }
}
