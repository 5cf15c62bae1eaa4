package dev.clusterrun.core.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What people see of a command's progress on stderr. */
class TerminalProgressTest {
  @Test
  void onATerminalTheNodesARoundWaitsForAreShownInPlaceThenCleared() {
    StringBuilder shown = new StringBuilder();
    TerminalProgress p = new TerminalProgress(shown::append, true);
    p.phase("facts", List.of("n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"));
    p.finished("facts", "n1", List.of("n2"));
    p.note("container c: reused");
    p.done("facts");
    assertThat(shown.toString())
        .isEqualTo(
            "\r\033[2Kclusterrun: facts: waiting for 8 nodes: n1 n2 n3 n4 n5 n6 … (+2)"
                + "\r\033[2Kclusterrun: facts: waiting for 1 node: n2"
                + "\r\033[2K"
                + "clusterrun: container c: reused"
                + System.lineSeparator());
  }

  @Test
  void elsewhereOnlyTheNotesAreShown() {
    StringBuilder shown = new StringBuilder();
    TerminalProgress p = new TerminalProgress(shown::append, false);
    p.phase("facts", List.of("n1"));
    p.finished("facts", "n1", List.of());
    p.done("facts");
    p.note("done");
    assertThat(shown.toString()).isEqualTo("clusterrun: done" + System.lineSeparator());
  }
}
