package dev.clusterrun.core.launch.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineLabelsTest {
  @Test
  void wholeLinesOfTwoNodesNeverMixAndEachNamesItsNode() throws Exception {
    ByteArrayOutputStream shared = new ByteArrayOutputStream();
    LineLabels a = new LineLabels(shared, "node1");
    LineLabels b = new LineLabels(shared, "node2");
    a.write("hel".getBytes(StandardCharsets.UTF_8));
    b.write("one\ntw".getBytes(StandardCharsets.UTF_8));
    a.write("lo\nwor".getBytes(StandardCharsets.UTF_8));
    b.write('o');
    b.write('\n');
    a.write("ld".getBytes(StandardCharsets.UTF_8));
    assertThat(shared.toString(StandardCharsets.UTF_8))
        .isEqualTo("node2: one\nnode1: hello\nnode2: two\n");
    a.close();
    b.close();
    assertThat(shared.toString(StandardCharsets.UTF_8))
        .isEqualTo("node2: one\nnode1: hello\nnode2: two\nnode1: world\n");
  }

  @Test
  void withoutALabelLinesPassUnchanged() throws Exception {
    ByteArrayOutputStream shared = new ByteArrayOutputStream();
    try (LineLabels l = new LineLabels(shared, null)) {
      l.write("a\n\nb".getBytes(StandardCharsets.UTF_8), 0, 4);
    }
    assertThat(shared.toString(StandardCharsets.UTF_8)).isEqualTo("a\n\nb\n");
  }
}
