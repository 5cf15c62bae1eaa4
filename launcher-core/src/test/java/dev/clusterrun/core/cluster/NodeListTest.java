package dev.clusterrun.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Slurm/pdsh node list of {@code --nodes}, {@code --exclude} and {@code SLURM_*NODELIST}. */
class NodeListTest {
  static List<String> names(String text) {
    return NodeList.parse(text, "--nodes", true).stream().map(NodeList.Entry::name).toList();
  }

  @Test
  void rangesListsAndPaddingAsSlurmWritesThem() {
    assertThat(names("gpu[01-03]")).containsExactly("gpu01", "gpu02", "gpu03");
    assertThat(names("gpu[01-04,07],login2"))
        .containsExactly("gpu01", "gpu02", "gpu03", "gpu04", "gpu07", "login2");
    assertThat(names("gpu[008-010]")).containsExactly("gpu008", "gpu009", "gpu010");
    assertThat(names("r[1-2]n[01-02]")).containsExactly("r1n01", "r1n02", "r2n01", "r2n02");
    assertThat(names("node1")).containsExactly("node1");
    assertThat(names("a-b.example.org,c[1-2].x"))
        .containsExactly("a-b.example.org", "c1.x", "c2.x");
    assertThat(names("gpu[16-16]")).containsExactly("gpu16");
  }

  @Test
  void hostColonNGivesSlotsAsHorovodWritesThem() {
    List<NodeList.Entry> e = NodeList.parse("gpu01:8,gpu[02-03]:4,login1", "--nodes", true);
    assertThat(e)
        .containsExactly(
            new NodeList.Entry("gpu01", 8),
            new NodeList.Entry("gpu02", 4),
            new NodeList.Entry("gpu03", 4),
            new NodeList.Entry("login1", 0));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "gpu[01-04|'gpu[01-04' at position 4: '[' is never closed",
        "gpu01-04]|'gpu01-04]' at position 9: ']' without a '[' before it",
        "gpu[[1-2]]|'gpu[[1-2]]' at position 5: '[' inside the '[' of position 4",
        "gpu[1-2]]|'gpu[1-2]]' at position 9: ']' without a '[' before it",
        "gpu[01-04;07]|'gpu[01-04;07]' at position 10: unexpected ';'",
        "gpu01 gpu02|'gpu01 gpu02' at position 6: unexpected character U+0020",
        "gpu01;rm -rf /|'gpu01;rm -rf /' at position 6: unexpected ';'",
        "$(reboot)|'$(reboot)' at position 1: unexpected '$'",
        "gpu`id`|'gpu`id`' at position 4: unexpected '`'",
        "gpu[a-c]|'gpu[a-c]' at position 5: 'a' inside brackets, which hold numbers such as [01-16,20]",
        "gpu01,,gpu02|'gpu01,,gpu02' at position 7: an empty name before ','",
        ",gpu01|',gpu01' at position 1: an empty name before ','",
        "gpu01,|'gpu01,' at position 6: an empty name after ','",
        "gpu01:0|'gpu01:0' at position 6: slots must be a whole number from 1 to 9999999",
        "gpu01:x|'gpu01:x' at position 6: ':' must be followed by the name's slots, as in gpu01:8",
        "gpu01:4:4|'gpu01:4:4' at position 8: a second ':' in one name",
        "gpu01:4[1-2]|'gpu01:4[1-2]' at position 8: '[' after the ':SLOTS' of a name",
        "gpu[9-1]|'gpu[9-1]': range 9-1 goes backwards",
        "gpu[]|'gpu[]': empty range '[]'",
        "gpu[1-]|'gpu[1-]': '1-' needs a number on both sides of '-', as in 1-16",
        "gpu[1-2],gpu2|gpu2 is listed twice ('gpu[1-2]' and 'gpu2')",
        "GPU1,gpu1|gpu1 is listed twice ('GPU1' and 'gpu1')",
        "-gpu1|'-gpu1' is not a valid host name: label '-gpu1' starts or ends with '-'",
      })
  void hostileListsAreRefusedNamingTheCharacter(String text, String problem) {
    assertThatThrownBy(() -> NodeList.parse(text, "--nodes", true))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--nodes: " + problem);
  }

  @Test
  void aMillionNodeRangeIsRefusedWithTheLimit() {
    assertThatThrownBy(() -> NodeList.parse("gpu[1-1000000]", "--nodes", true))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "--nodes: 'gpu[1-1000000]': more than 100000 nodes; clusterrun takes at most 100000"
                + " (as in a hostfile)");
    assertThatThrownBy(() -> NodeList.parse("r[1-1000]n[1-1000]", "--nodes", true))
        .hasMessageContaining("more than 100000 nodes");
    assertThatThrownBy(() -> NodeList.parse("a[1-60000],b[1-60000]", "--nodes", true))
        .hasMessageContaining("more than 100000 nodes");
    assertThatThrownBy(() -> NodeList.parse("gpu[1-99999999999]", "--nodes", true))
        .hasMessageContaining("is not a number");
    assertThat(NodeList.parse("g[1-100000]", "--nodes", true)).hasSize(100_000);
  }

  @Test
  void slotsWhereNoneAreTakenAndAnEmptyOrHugeList() {
    assertThatThrownBy(() -> NodeList.parse("gpu01:4", "--exclude", false))
        .hasMessage("--exclude: 'gpu01:4' at position 6: names take no ':SLOTS' here");
    assertThatThrownBy(() -> NodeList.parse("", "--nodes", true))
        .hasMessage("--nodes: the node list is empty");
    assertThatThrownBy(() -> NodeList.parse("a".repeat(NodeList.MAX_LENGTH + 1), "--nodes", true))
        .hasMessageContaining("longer than");
    assertThatThrownBy(() -> NodeList.parse("gpu\u0000", "--nodes", true))
        .hasMessageContaining("at position 4: unexpected character U+0000");
  }
}
