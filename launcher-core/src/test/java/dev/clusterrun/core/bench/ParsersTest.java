package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every fixture through its parser: verdict and headline, one row per file. */
class ParsersTest {
  private static final Map<String, BenchParser> PARSERS =
      Map.of(
          "hpl", new HplParser(),
          "hpcc", new HpccParser(),
          "hpcg", new HpcgParser(),
          "stream", new StreamParser(),
          "nccl", new NcclTestsParser(),
          "hpl-mxp", new HplMxpParser());

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "hpcc,    hpcc-np2-real.hpccoutf.txt,           PASSED,      9.78027",
    "hpcc,    hpcc-np2-edited-failed.hpccoutf.txt,  FAILED,      9.78027",
    "hpcc,    hpcc-np2-truncated.hpccoutf.txt,      PARSE_ERROR, ",
    "hpl,     hpl-netlib-real-from-hpcc.txt,        PASSED,      9.780",
    "hpl,     hpl-netlib-failed-edited.txt,         FAILED,      19.04",
    "hpl,     hpl-nvidia-2nodes.txt,                PASSED,      574900",
    "hpl,     hpl-nvidia-tagged.txt,                PASSED,      574900",
    "hpl,     hpl-nvidia-truncated.txt,             PARSE_ERROR, 561900",
    "hpl-mxp, hpl-mxp-nvidia.txt,                   PASSED,      3331600",
    "hpl-mxp, hpl-mxp-nvidia-failed-edited.txt,     FAILED,      3331600",
    "hpcg,    hpcg-reference-3.1.txt,               PASSED,      12.4407",
    "hpcg,    hpcg-3.0-yaml.txt,                    PASSED,      3.301846",
    "hpcg,    hpcg-invalid-edited.txt,              FAILED,      ",
    "hpcg,    hpcg-truncated.txt,                   PARSE_ERROR, ",
    "stream,  stream-reference.txt,                 PASSED,      153012.8",
    "stream,  stream-nvidia.txt,                    PASSED,      3100884.4496",
    "stream,  stream-failed-edited.txt,             FAILED,      153012.8",
    "stream,  stream-truncated.txt,                 PARSE_ERROR, ",
    "nccl,    nccl-all-reduce.txt,                  PASSED,      55.8624",
    "nccl,    nccl-wrong-edited.txt,                FAILED,      55.8624",
    "nccl,    nccl-truncated.txt,                   PARSE_ERROR, ",
  })
  void fixtureVerdictAndHeadline(String preset, String file, Verdict verdict, Double headline) {
    BenchResult r = PARSERS.get(preset).parse(Fixtures.read(file));
    assertThat(r.preset()).isEqualTo(preset);
    assertThat(r.verdict()).as(r.reason()).isEqualTo(verdict);
    if (verdict == Verdict.PASSED) {
      assertThat(r.reason()).isNull();
    } else {
      assertThat(r.reason()).isNotBlank();
    }
    if (headline == null) {
      assertThat(r.headline()).isNull();
    } else {
      assertThat(r.headline().value()).isCloseTo(headline, within(headline * 1e-9));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"hpl", "hpcc", "hpcg", "stream", "nccl", "hpl-mxp"})
  void emptyOrForeignOutputIsAParseErrorNeverAPass(String preset) {
    BenchParser parser = PARSERS.get(preset);
    assertThat(parser.parse("").verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(parser.parse(null).verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(parser.parse("Segmentation fault (core dumped)\n").verdict())
        .isEqualTo(Verdict.PARSE_ERROR);
  }

  @ParameterizedTest(name = "{0} cut at every line stays off PASSED until complete")
  @CsvSource({
    "hpl,    hpl-nvidia-2nodes.txt",
    "hpl,    hpl-netlib-real-from-hpcc.txt",
    "hpcc,   hpcc-np2-real.hpccoutf.txt",
    "nccl,   nccl-all-reduce.txt",
    "stream, stream-reference.txt",
    "hpl-mxp, hpl-mxp-nvidia.txt",
  })
  void truncatedOutputNeverPassesBeforeTheVerdictLines(String preset, String file) {
    String full = Fixtures.read(file);
    String[] lines = full.split("\n");
    int firstPass = -1;
    for (int i = 0; i <= lines.length; i++) {
      String cut = String.join("\n", java.util.Arrays.copyOf(lines, i));
      BenchResult r = PARSERS.get(preset).parse(cut);
      if (r.verdict() == Verdict.PASSED && firstPass < 0) {
        firstPass = i;
      }
      if (firstPass >= 0) {
        // once passing, every longer prefix passes too: no flapping
        assertThat(r.verdict()).as("prefix of %d lines", i).isEqualTo(Verdict.PASSED);
      }
    }
    assertThat(firstPass).as("the complete file passes").isPositive();
    String lastPassingLine = lines[firstPass - 1];
    assertThat(lastPassingLine)
        .as("the line that completes the verdict")
        .matches(
            ".*(tests completed and passed residual checks|skipped because of illegal input"
                + "|End of Summary section|Out of bounds values|Avg bus bandwidth"
                + "|Solution Validates|GFLOPS = .*per GPU|tests completed and failed).*");
  }
}
