package dev.clusterrun.core.setup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.remote.ExecResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SetupReportTest {
  static final FileChange HOOK_CREATED =
      new FileChange(
          "hook",
          "/etc/enroot/hooks.d/50-clusterrun-launch-agent.sh",
          FileChange.Action.CREATE,
          "new file, mode 0755",
          "--- /dev/null\n+++ /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh\n@@ -0,0 +1 @@\n+#!/bin/sh\n",
          null);
  static final FileChange DROPIN_UPGRADED =
      new FileChange(
          "drop-in",
          "/etc/enroot/enroot.conf.d/50-clusterrun.conf",
          FileChange.Action.UPGRADE,
          "version 0 -> 1",
          "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
          "/etc/enroot/enroot.conf.d/50-clusterrun.conf.clusterrun-backup-20260102T030405Z");

  @Test
  void textShowsEachNodeAndASummary() {
    SetupReport report =
        new SetupReport(
            false,
            List.of(
                NodeOutcome.changed("node1", List.of(HOOK_CREATED, DROPIN_UPGRADED)),
                NodeOutcome.unchanged("node2"),
                NodeOutcome.failed(
                    "node3",
                    "setup needs root: sudo -n failed: a password is required",
                    List.of())));

    assertThat(report.text())
        .isEqualTo(
            """
            node1: changed: /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh (created), \
            /etc/enroot/enroot.conf.d/50-clusterrun.conf (upgraded)
              backup: /etc/enroot/enroot.conf.d/50-clusterrun.conf.clusterrun-backup-20260102T030405Z
            node2: unchanged
            node3: failed: setup needs root: sudo -n failed: a password is required
            setup: 1 changed, 1 unchanged, 1 failed
            """);
    assertThat(report.ok()).isFalse();
  }

  @Test
  void dryRunTextCarriesTheDiffs() {
    SetupReport report =
        new SetupReport(true, List.of(NodeOutcome.wouldChange("node1", List.of(HOOK_CREATED))));

    assertThat(report.text())
        .isEqualTo(
            """
            node1: would change: /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh (created)
              /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh: new file, mode 0755
                --- /dev/null
                +++ /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh
                @@ -0,0 +1 @@
                +#!/bin/sh
            setup (dry run): 1 would change, 0 unchanged, 0 failed
            """);
    assertThat(report.ok()).isTrue();
  }

  @Test
  void jsonHasEveryNodeWithStatusChangesAndReason() throws Exception {
    SetupReport report =
        new SetupReport(
            false,
            List.of(
                NodeOutcome.changed("node1", List.of(DROPIN_UPGRADED)),
                NodeOutcome.failed("node2", "boom", List.of())));

    JsonNode json = new ObjectMapper().readTree(report.json());

    assertThat(json.get("dryRun").asBoolean()).isFalse();
    assertThat(json.get("ok").asBoolean()).isFalse();
    assertThat(json.get("nodes")).hasSize(2);
    JsonNode n1 = json.get("nodes").get(0);
    assertThat(n1.get("node").asText()).isEqualTo("node1");
    assertThat(n1.get("status").asText()).isEqualTo("CHANGED");
    assertThat(n1.get("reason").isNull()).isTrue();
    JsonNode c = n1.get("changes").get(0);
    assertThat(c.get("action").asText()).isEqualTo("UPGRADE");
    assertThat(c.get("path").asText()).isEqualTo("/etc/enroot/enroot.conf.d/50-clusterrun.conf");
    assertThat(c.get("backup").asText()).endsWith(".clusterrun-backup-20260102T030405Z");
    assertThat(c.get("diff").asText()).contains("+new\n");
    assertThat(json.get("nodes").get(1).get("reason").asText()).isEqualTo("boom");
  }

  @Test
  void scriptFailuresBecomeReasons() {
    assertThat(
            NodeSetup.problem(
                new ExecResult(
                    97,
                    "",
                    "clusterrun-needs-root: sudo -n failed: sudo: a password is required\n",
                    Duration.ZERO,
                    null),
                "reading"))
        .hasValue("setup needs root: sudo -n failed: a password is required");
    assertThat(
            NodeSetup.problem(
                new ExecResult(
                    1,
                    "",
                    "noise\nclusterrun-setup-error: /x already exists\n",
                    Duration.ZERO,
                    null),
                "writing"))
        .hasValue("/x already exists");
    assertThat(
            NodeSetup.problem(
                new ExecResult(2, "", "sh: 1: syntax error\n", Duration.ZERO, null), "writing"))
        .hasValue("writing failed (exit 2): sh: 1: syntax error");
    assertThat(NodeSetup.problem(new ExecResult(0, "", "", Duration.ZERO, null), "x")).isEmpty();
  }
}
