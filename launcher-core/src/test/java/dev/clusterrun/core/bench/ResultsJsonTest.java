package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
  @TempDir Path dir;

  static BenchResult sample() {
    return new HpccParser()
        .parse(Fixtures.read("hpcc-np2-real.hpccoutf.txt"))
        .withRun(
            List.of("n1", "n2"),
            2,
            0,
            "docker://debian-hpcc:12",
            Instant.parse("2026-11-21T05:54:03Z"),
            Instant.parse("2026-11-21T05:54:06Z"));
  }

  @Test
  void roundTripsEveryFieldThroughAFile() throws Exception {
    Path file = dir.resolve("run/results.json");
    ResultsJson.write(file, sample());
    assertThat(ResultsJson.read(file)).isEqualTo(sample());
    String text = Files.readString(file);
    assertThat(text).startsWith("{\n  \"schemaVersion\" : 1,\n  \"preset\" : \"hpcc\"");
    assertThat(text).contains("\"startTime\" : \"2026-11-21T05:54:03Z\"");
    // absent values are present as null, so every file has every field
    assertThat(text).contains("\"perGpu\" : null");
    try (var files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file); // no temporary file left behind
    }
  }

  @Test
  void fieldNamesAreStable() {
    String json = ResultsJson.toJsonLine(sample());
    for (String field :
        List.of(
            "schemaVersion",
            "preset",
            "verdict",
            "reason",
            "headline",
            "perGpu",
            "n",
            "nb",
            "p",
            "q",
            "timeSeconds",
            "residual",
            "testsPassed",
            "testsFailed",
            "testsSkipped",
            "rows",
            "metrics",
            "nodes",
            "ranks",
            "gpus",
            "image",
            "startTime",
            "endTime",
            "cluster",
            "runId",
            "runDir")) {
      assertThat(json).contains("\"" + field + "\":");
    }
    assertThat(json).doesNotContain("\n");
  }

  @Test
  void refusesNewerSchemasAndNonResults() {
    String newer =
        ResultsJson.toJsonLine(sample()).replace("\"schemaVersion\":1", "\"schemaVersion\":2");
    assertThatThrownBy(() -> ResultsJson.fromJson(newer, "baseline.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("baseline.json: schemaVersion 2 is newer");
    assertThatThrownBy(() -> ResultsJson.fromJson("{\"a\":1}", "x.json"))
        .hasMessageContaining("x.json: no schemaVersion");
    assertThatThrownBy(() -> ResultsJson.fromJson("{oops", "y.json"))
        .hasMessageStartingWith("y.json: not valid JSON");
    assertThatThrownBy(() -> ResultsJson.read(dir.resolve("missing.json")))
        .hasMessageEndingWith("missing.json: no such file");
  }

  @Test
  void acceptsFieldsItDoesNotKnow() {
    String extra =
        ResultsJson.toJsonLine(sample())
            .replace("{\"schemaVersion\":1,", "{\"schemaVersion\":1,\"future\":true,");
    assertThat(ResultsJson.fromJson(extra, "x")).isEqualTo(sample());
  }

  @Test
  void logAppendsLinesAndReadsThemBackReportingDamagedLines() throws Exception {
    ResultsLog log = ResultsLog.inWorkspace(dir);
    assertThat(log.read().results()).isEmpty();
    log.append(sample());
    log.append(BenchResult.parseError("hpl", "the output is empty"));
    Files.writeString(log.file(), "not json\n", java.nio.file.StandardOpenOption.APPEND);
    log.append(sample());
    ResultsLog.Contents c = log.read();
    assertThat(c.results()).hasSize(3);
    assertThat(c.results().get(1).verdict()).isEqualTo(Verdict.PARSE_ERROR);
    assertThat(c.problems())
        .singleElement()
        .asString()
        .startsWith(log.file() + ":3: not valid JSON");
    assertThat(Files.readAllLines(log.file())).hasSize(4);
  }

  @Test
  void damagedLinesAreExplainedByFieldWithoutJavaNames() {
    String line = ResultsJson.toJsonLine(sample());
    String[][] cases = {
      {
        line.replace("\"verdict\":\"PASSED\"", "\"verdict\":\"FAILED\""),
        "ws/results.jsonl:7: not a valid result: a FAILED result needs a 'reason'"
      },
      {
        line.replace("\"verdict\":\"PASSED\"", "\"verdict\":\"GREAT\""),
        "ws/results.jsonl:7: not a valid result: field 'verdict': 'GREAT' is not one of PASSED,"
            + " FAILED, PARSE_ERROR"
      },
      {
        line.replace("\"n\":2000", "\"n\":\"many\""),
        "ws/results.jsonl:7: not a valid result: field 'n': 'many' is not a number"
      },
      {
        line.replace("\"startTime\":\"", "\"startTime\":\"yesterday "),
        "ws/results.jsonl:7: not a valid result: field 'startTime': 'yesterday"
      },
      {
        line.replace("\"nodes\":[", "\"nodes\":{\"a\":[").replace("],\"ranks", "]},\"ranks"),
        "ws/results.jsonl:7: not a valid result: field 'nodes': expected a list"
      },
    };
    for (String[] c : cases) {
      assertThat(c[0]).isNotEqualTo(line);
      assertThatThrownBy(() -> ResultsJson.fromJson(c[0], "ws/results.jsonl:7"))
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith(c[1])
          .message()
          .doesNotContain("dev.clusterrun", "Cannot construct", "Cannot deserialize", "`");
    }
  }

  @Test
  void aLogThatIsADirectoryOrAWorkspaceThatIsAFileIsAProblemNotACrash() throws Exception {
    Path file = dir.resolve("plain-file");
    Files.writeString(file, "x");
    assertThat(ResultsLog.inWorkspace(file).problem())
        .isEqualTo(file + " is a file, not a workspace directory");
    Path ws = dir.resolve("ws");
    Files.createDirectories(ws.resolve(ResultsLog.FILE_NAME));
    ResultsLog log = ResultsLog.inWorkspace(ws);
    assertThat(log.problem()).startsWith(log.file() + " is a directory; the results log must be");
    assertThatThrownBy(log::read).isInstanceOf(BadInputException.class);
    assertThat(ResultsLog.inWorkspace(dir.resolve("new")).problem()).isNull();
  }
}
