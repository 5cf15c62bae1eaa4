package dev.clusterrun.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.Golden;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostfileParserTest {
  static List<Path> goldenInputs() {
    return Golden.inputs("hostfiles", ".txt");
  }

  @Test
  void theGoldenFolderHasEnoughCases() {
    assertThat(Golden.orphans("hostfiles", ".txt")).isEmpty();
    assertThat(goldenInputs()).hasSizeGreaterThanOrEqualTo(12);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldenInputs")
  void golden(Path input) {
    Golden.check(input, ".txt", render(input));
  }

  /** The hosts as a person would check them, or the exact message a person would see. */
  static String render(Path input) {
    String name = input.getFileName().toString();
    try {
      Hostfile hf = HostfileParser.parse(Golden.read(input), name);
      StringBuilder b = new StringBuilder();
      b.append("# ")
          .append(hf.hosts().size())
          .append(" hosts, ")
          .append(hf.totalSlots())
          .append(" slots\n");
      for (Host h : hf.hosts()) {
        b.append(h.name())
            .append(" slots=")
            .append(h.slots())
            .append(h.slotsGiven() ? "" : " (default)")
            .append(h.maxSlots() > 0 ? " max_slots=" + h.maxSlots() : "")
            .append("  # line ")
            .append(h.line())
            .append('\n');
      }
      return b.toString();
    } catch (BadInputException e) {
      return "clusterrun: " + e.subject() + ": " + e.problem() + "\n";
    }
  }

  @Test
  void renderedHostfileStatesSlotsForMpirun() {
    Hostfile hf = HostfileParser.parse("a\nb slots=4 max_slots=8\n", "h");
    assertThat(hf.render()).isEqualTo("a slots=1\nb slots=4 max_slots=8\n");
    assertThat(hf.names()).containsExactly("a", "b");
  }

  @Test
  void windowsLineEndingsAndByteOrderMarkAreFine() {
    Hostfile hf = HostfileParser.parse("\uFEFFnode1 slots=2\r\nnode2\r\n", "h");
    assertThat(hf.names()).containsExactly("node1", "node2");
    assertThat(hf.hosts().get(1).line()).isEqualTo(2);
  }

  @Test
  void ipv6SpellingsOfOneAddressAreDuplicates() {
    assertThatThrownBy(() -> HostfileParser.parse("::1\n0:0:0:0:0:0:0:1\n", "h"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("h:2: 0:0:0:0:0:0:0:1 is listed twice (first at line 1)");
  }

  @Test
  void hugeRangesAreRefusedBeforeExpansion() {
    assertThatThrownBy(() -> HostfileParser.parse("n[1-999999999]\n", "h"))
        .hasMessage("h:1: 'n[1-999999999]': expands to more than 100000 names");
    assertThatThrownBy(() -> HostfileParser.parse("a[1-1000]b[1-1000]\n", "h"))
        .hasMessage("h:1: 'a[1-1000]b[1-1000]': expands to more than 100000 names");
  }

  @Test
  void readNamesTheFileAsGiven(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("hosts.txt");
    Files.writeString(f, "n1 slots=2\n");
    assertThat(HostfileParser.read(f).source()).isEqualTo(f.toString());
    assertThat(HostfileParser.read(f).totalSlots()).isEqualTo(2);

    // A file that cannot be read at all is named with the flag that gave it.
    Path missing = dir.resolve("nope.txt");
    assertThatThrownBy(() -> HostfileParser.read(missing))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--nodes " + missing + ": no such file");
    assertThatThrownBy(() -> HostfileParser.read(dir))
        .hasMessage("--nodes " + dir + ": is a directory, not a hostfile");

    // Bytes that are not UTF-8 are named by line, column and byte offset.
    Path binary = dir.resolve("bin");
    Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    assertThatThrownBy(() -> HostfileParser.read(binary))
        .hasMessage(
            binary
                + ":1:1: byte 0xFF (at byte offset 0) is not valid UTF-8; the file must be UTF-8"
                + " text (convert it, e.g. with iconv -t UTF-8)");
    Path latin1 = dir.resolve("latin1.txt");
    Files.write(latin1, "n1 slots=2\nn\u00e9 slots=2\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> HostfileParser.read(latin1))
        .hasMessageStartingWith(latin1 + ":2:2: byte 0xE9 (at byte offset 12) is not valid UTF-8");
  }

  @Test
  void aHostfileOverTheSizeLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
    Path big = dir.resolve("big.txt");
    byte[] line =
        "n1 slots=2 # padding padding padding padding padding padding padding\n".getBytes();
    try (var out = Files.newOutputStream(big)) {
      for (long n = 0; n <= HostfileParser.MAX_BYTES / line.length; n++) {
        out.write(line);
      }
    }
    assertThatThrownBy(() -> HostfileParser.read(big))
        .hasMessage("--nodes " + big + ": larger than 16 MiB, the most a hostfile may hold");
  }
}
