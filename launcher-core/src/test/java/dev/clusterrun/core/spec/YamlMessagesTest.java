package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broken job file is reported in clusterrun's words at a place ({@code FILE:LINE:COLUMN}), never
 * with the YAML reader's token names, exception text or API names.
 */
class YamlMessagesTest {
  /** Words of the YAML reader (SnakeYAML, Jackson) that must never reach a person. */
  private static final List<String> READER_WORDS =
      List.of(
          "<block",
          "<scalar>",
          "<stream",
          "<document",
          "while parsing",
          "while scanning",
          "mapping values are not allowed",
          "could not find expected",
          "cannot start any token",
          "special characters are not allowed",
          "found unexpected end of stream",
          "StreamReadConstraints",
          "exceeds the limit",
          "code points",
          "Exception");

  @Test
  void noGoldenMessageShowsTheReadersWords() {
    for (Path input : Golden.inputs("specs", ".yaml")) {
      String out = SpecLoaderTest.render(input);
      if (out.startsWith("clusterrun: ")) {
        assertThat(out).as("message for %s", input).doesNotContain(READER_WORDS);
        assertThat(out)
            .as("message for %s names FILE:LINE:COLUMN", input)
            .containsPattern("^clusterrun: " + input.getFileName() + "(:\\d+:\\d+)?: ");
      }
    }
  }

  @Test
  void nestingBeyondTheReadersLimitIsNamedByPlace() {
    String deep = "mpi:\n  args: " + "[".repeat(1100) + "]".repeat(1100) + "\n";
    assertThatThrownBy(() -> SpecLoader.parse(deep, "job.yaml"))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "job.yaml:2:39: maps and lists nested more than 32 levels deep; no job spec field is"
                + " deeper than 4");
  }

  @Test
  void textOverTheSizeLimitIsRefusedInClusterrunsWords() {
    String big = "name: x\ncommand: [\"" + "a".repeat(YamlTree.MAX_CODE_POINTS) + "\"]\n";
    assertThatThrownBy(() -> SpecLoader.parse(big, "job.yaml"))
        .hasMessage(
            "job.yaml: too large: "
                + big.length()
                + " characters; a job spec may hold at most 3145728 (3 MiB)");
  }

  @Test
  void aFileOverTheSizeLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("job.yaml");
    Files.writeString(f, "name: x\ncommand: [\"" + "é".repeat(2 * 1024 * 1024) + "\"]\n");
    assertThatThrownBy(() -> SpecLoader.load(f))
        .hasMessage(f + ": larger than 3 MiB, the most a job spec may hold");
  }

  @Test
  void aFileThatIsNotUtf8IsNamedByLineColumnAndByteOffset(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("job.yaml");
    Files.write(f, "name: x\ncommand: [caf\u00e9]\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> SpecLoader.load(f))
        .hasMessage(
            f
                + ":2:14: byte 0xE9 (at byte offset 21) is not valid UTF-8; the file must be UTF-8"
                + " text (convert it, e.g. with iconv -t UTF-8)");

    // The column counts characters, not bytes; a character cut off at the end is named as such.
    Files.write(f, concat("name: \u00e9\u00e9".getBytes(StandardCharsets.UTF_8), (byte) 0xC3));
    assertThatThrownBy(() -> SpecLoader.load(f))
        .hasMessageStartingWith(f + ":1:9: the file ends inside a UTF-8 character;");
  }

  @Test
  void aMixedCaseTrueIsNotCalledAQuotedString() {
    assertThatThrownBy(() -> SpecLoader.parse("container:\n  writable: tRUE\n", "j.yaml"))
        .hasMessage(
            "j.yaml:2:13: container.writable: expected true or false, found 'tRUE', which is not a"
                + " boolean: write true (YAML booleans are true and false, also True, TRUE, False"
                + " and FALSE)");
    // A really quoted one is.
    assertThatThrownBy(() -> SpecLoader.parse("container:\n  writable: \"TRUE\"\n", "j.yaml"))
        .hasMessageEndingWith("found the quoted string 'TRUE'; remove the quotes");
    assertThat(SpecLoader.parse("container:\n  writable: TRUE\n", "j").container().writable())
        .isTrue();
    assertThat(SpecLoader.parse("container:\n  writable: False\n", "j").container().writable())
        .isFalse();
  }

  @Test
  void longValuesAreClippedInMessages() {
    String digits = "1".repeat(1001);
    assertThatThrownBy(() -> SpecLoader.parse("mpi:\n  np: " + digits + "\n", "j.yaml"))
        .hasMessage(
            "j.yaml:2:7: mpi.np: expected a whole number of at most 10000000, found "
                + "1".repeat(40)
                + "… (1001 characters)");
  }

  private static byte[] concat(byte[] a, byte b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = b;
    return out;
  }
}
