package dev.clusterrun.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.check.CheckId;
import org.junit.jupiter.api.Test;

/** {@code clusterrun check} as a user meets it without a cluster: its help and its bad input. */
class CheckCommandTest {
  @Test
  void helpHasAPlainSynopsisAndListsEveryCheckOnALineOfItsOwn() {
    CliTest.Run r = CliTest.run("check", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .startsWith(
            "Usage: clusterrun check [--nodes=HOSTFILE|NODELIST] [--slots=N]\n"
                + "                        [-x=@FILE|NODELIST]... [--node-count=N]\n"
                + "                        [--only=CHECK[,CHECK...]]\n"
                + "                        [--skip=CHECK[,CHECK...]] [--json] [SSH options]\n")
        .contains("      --only=CHECK[,CHECK...]\n")
        .contains("      --skip=CHECK[,CHECK...]\n")
        .doesNotContain("[,CHECK[,CHECK...]...]")
        .contains("\nChecks (for --only and --skip):\n");
    // One line each, even in an 80-column terminal.
    assertThat(r.out().lines()).allMatch(l -> l.length() <= 80);
    for (CheckId c : CheckId.values()) {
      assertThat(
              r.out()
                  .lines()
                  .filter(l -> l.matches("  " + c.id() + " +\\Q" + c.description() + "\\E")))
          .as(c.id())
          .hasSize(1);
    }
  }

  @Test
  void aSelectionThatLeavesNoCheckIsBadInputBeforeAnyNodeIsAsked() {
    CliTest.Run r =
        CliTest.run("check", "--nodes", "/nonexistent/hosts", "--only=hook", "--skip=hook");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "clusterrun: --skip: skips every check --only selects (hook); no check would run\n");
  }
}
