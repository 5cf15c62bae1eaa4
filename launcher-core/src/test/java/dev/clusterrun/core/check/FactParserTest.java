package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FactParserTest {
  private static ExecResult ok(String out) {
    return new ExecResult(0, out, "", Duration.ofMillis(200), null);
  }

  @Test
  void garbageAroundAndBetweenTheMarkersIsIgnored() {
    Facts f =
        FactParser.parse(
            "n1",
            ok(
                "Welcome to node1!\nuid=999\n"
                    + FactScript.BEGIN
                    + "\nhostname=node1\nthis is noise\n=novalue\nbad key=1\nuid=1000\n"
                    + "enroot.ENROOT_DATA_PATH=/a\\\\b\\nc\n"
                    + FactScript.END
                    + "\nuid=5\n"));
    assertThat(f.problem()).isNull();
    assertThat(f.host().hostname()).isEqualTo("node1");
    assertThat(f.account().uid()).isEqualTo(1000);
    assertThat(f.storage().dataPath()).isEqualTo("/a\\b\nc");
  }

  @Test
  void outputCutShortIsAProblemNotFacts() {
    Facts f =
        FactParser.parse(
            "n1",
            new ExecResult(
                137, FactScript.BEGIN + "\nhostname=x\n", "sh: killed", Duration.ZERO, null));
    assertThat(f.answered()).isFalse();
    assertThat(f.problem()).contains("ended early").contains("exit 137").contains("sh: killed");
  }

  @Test
  void connectionErrorIsAProblem() {
    Facts f = FactParser.parse("n1", ExecResult.failed("connection refused", Duration.ZERO));
    assertThat(f.problem()).isEqualTo("connection refused");
  }

  @Test
  void noMarkerAtAllSaysSo() {
    Facts f = FactParser.parse("n1", new ExecResult(127, "", "sh: not found", Duration.ZERO, null));
    assertThat(f.problem()).contains("printed no facts").contains("exit 127");
  }

  @Test
  void theBootIdIsReadFromACompleteAnswerOnly() {
    String facts = FactScript.BEGIN + "\nhostname=n1\nboot=0f1e2d3c\n";
    assertThat(FactParser.bootId(ok(facts + FactScript.END + "\n"))).isEqualTo("0f1e2d3c");
    assertThat(FactParser.bootId(ok(facts))).as("cut short").isNull();
    assertThat(FactParser.bootId(ok(FactScript.BEGIN + "\nboot=\n" + FactScript.END))).isNull();
    assertThat(FactParser.bootId(ExecResult.failed("refused", Duration.ZERO))).isNull();
    assertThat(FactParser.bootId(null)).isNull();
  }
}
