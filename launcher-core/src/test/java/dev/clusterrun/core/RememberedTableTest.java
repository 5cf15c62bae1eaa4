package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table a run leaves for the next one: what it reads back, what it skips, its bound, and a file
 * it cannot read or write.
 */
class RememberedTableTest {
  @TempDir Path dir;

  /** Lines {@code KEY NUMBER}, a key of lower-case letters only. */
  private static final RememberedTable.Format<Integer> LINES =
      new RememberedTable.Format<>() {
        @Override
        public Map.Entry<String, Integer> read(String line) {
          String[] w = line.split(" ");
          return w.length == 2 && w[0].matches("[a-z]+") && w[1].matches("[0-9]+")
              ? Map.entry(w[0], Integer.valueOf(w[1]))
              : null;
        }

        @Override
        public String line(String key, Integer value) {
          return key + " " + value;
        }
      };

  private RememberedTable<Integer> table(int max) {
    return RememberedTable.read(dir.resolve("sub/table"), 1024, max, LINES);
  }

  @Test
  void whatOneRunWritesTheNextReadsBackTheNewestLast() throws Exception {
    RememberedTable<Integer> t = table(10);
    assertThat(t.entries()).isEmpty();
    t.put("a", 1);
    t.put("b", 2);
    t.put("a", 3);
    t.write();
    assertThat(Files.readString(dir.resolve("sub/table"))).isEqualTo("b 2\na 3\n");
    RememberedTable<Integer> again = table(10);
    assertThat(again.get("a")).isEqualTo(3);
    assertThat(again.get("c")).isNull();
    assertThat(again.entries().keySet()).containsExactly("b", "a");
  }

  @Test
  void theOldestKeysGoBeyondTheBound() {
    RememberedTable<Integer> t = table(3);
    for (int i = 0; i < 5; i++) {
      t.put("k".repeat(i + 1), i);
    }
    t.write();
    assertThat(table(3).entries().keySet()).containsExactly("kkk", "kkkk", "kkkkk");
  }

  @Test
  void linesTheFormatDoesNotTakeAreSkippedAndALaterLineWins() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/table"), "a 1\njunk\nB 2\nb x\n\nb 4\na 5\n");
    RememberedTable<Integer> t = table(10);
    assertThat(t.entries()).containsExactly(Map.entry("b", 4), Map.entry("a", 5));
  }

  @Test
  void anOversizedFileIsAnEmptyTable() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/table"), "a 1\n" + "#".repeat(2000) + "\n");
    assertThat(table(10).entries()).isEmpty();
  }

  @Test
  void aTableThatCannotBeWrittenLeavesWhatIsThereAndDoesNotThrow() throws Exception {
    // "sub" is a file, so no table can be written under it (not even by root)
    Files.writeString(dir.resolve("sub"), "a 1\n");
    RememberedTable<Integer> t = table(10);
    assertThat(t.entries()).isEmpty();
    t.put("b", 2);
    t.write();
    assertThat(Files.readString(dir.resolve("sub"))).isEqualTo("a 1\n");
    assertThat(t.get("b")).as("still known to this run").isEqualTo(2);
  }
}
