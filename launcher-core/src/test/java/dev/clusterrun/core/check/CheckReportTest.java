package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.cluster.Host;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Renderers against golden files in {@code golden/}. Run with {@code -Dgolden.update=DIR} to write
 * the current output to DIR for review.
 */
class CheckReportTest {

  /** node1 (head) healthy; node2 non-executable hook and not shared; node3 unreachable. */
  static CheckReport sample() {
    Map<String, Facts> facts = new LinkedHashMap<>();
    facts.put("node1", TestFacts.node("node1").gpus(4).build());
    facts.put(
        "node2",
        TestFacts.node("node2")
            .gpus(8)
            .set("hook.0.stat", "644 0 root regular file")
            .set("hook.0.executable", "no")
            .set("data.fstype", "ext4")
            .set("data.mountpoint", "/")
            .build());
    facts.put(
        "node3",
        Facts.unanswered("node3", "connect to node3 port 22: No route to host", Duration.ZERO));
    Map<String, SharedPathProof.NodeProof> proof = new LinkedHashMap<>();
    proof.put(
        "node1",
        new SharedPathProof.NodeProof(
            "node1", SharedPathProof.Status.SHARED, "/shared/enroot/data-1000", "wrote"));
    proof.put(
        "node2",
        new SharedPathProof.NodeProof(
            "node2",
            SharedPathProof.Status.NOT_SHARED,
            "/shared/enroot/data-1000",
            "does not see the head's probe /shared/enroot/data-1000/.clusterrun-probe-x/head:"
                + " not the head's storage"));
    Map<String, NodeToNodeSsh.Answer> ssh = new LinkedHashMap<>();
    ssh.put("node2", new NodeToNodeSsh.Answer("node2", true, 0, ""));
    ssh.put(
        "node3",
        new NodeToNodeSsh.Answer(
            "node3", false, 255, "ssh: connect to host node3 port 22: No route to host"));
    Map<String, Host> hosts = new LinkedHashMap<>();
    hosts.put("node1", new Host("node1", 4, true, 0, 1));
    hosts.put("node2", new Host("node2", 4, true, 0, 2));
    hosts.put("node3", new Host("node3", 4, true, 0, 3));
    CheckInput in =
        new CheckInput(
            List.of("node1", "node2", "node3"),
            "node1",
            facts,
            hosts,
            new SharedPathProof.Verdict("node1", "/shared/enroot/data-1000/.p", proof, null, null),
            ssh,
            CheckJob.NONE,
            ExpectedSetup.standard(1),
            null);
    return new CheckReport(
        in.nodes(),
        "node1",
        Arrays.asList(CheckId.values()),
        Checks.evaluate(in, CheckSelection.all()),
        facts,
        new CheckReport.Timings(
            Duration.ofMillis(1234),
            Duration.ofMillis(800),
            Duration.ofMillis(300),
            Duration.ofMillis(250)),
        null);
  }

  @Test
  void tableMatchesTheGoldenFile() throws IOException {
    assertGolden("report.expected.txt", sample().renderTable());
  }

  @Test
  void selectedChecksOnlyMatchTheGoldenFile() throws IOException {
    CheckReport all = sample();
    List<CheckId> some = List.of(CheckId.REACHABLE, CheckId.HOOK, CheckId.GPU_SLOTS);
    List<CheckResult> results = new ArrayList<>();
    for (CheckResult r : all.results()) {
      if (some.contains(r.check())) {
        results.add(r);
      }
    }
    CheckReport r =
        new CheckReport(all.nodes(), all.head(), some, results, all.facts(), all.timings(), null);
    assertGolden("report-selected.expected.txt", r.renderTable());
  }

  @Test
  void jsonHasEveryNodeAndEveryCheck() throws IOException {
    CheckReport r = sample();
    String text = r.renderJson();
    JsonNode json = new ObjectMapper().readTree(text);
    assertThat(json.get("passed").asBoolean()).isFalse();
    assertThat(json.get("head").asText()).isEqualTo("node1");
    assertThat(json.get("summary").get("fail").asLong()).isEqualTo(r.count(CheckStatus.FAIL));
    assertThat(json.get("checks")).hasSize(CheckId.values().length);
    assertThat(json.get("checks").get(0).get("id").asText()).isEqualTo("reachable");
    assertThat(json.get("timings").get("totalMs").asLong()).isEqualTo(1234);
    JsonNode nodes = json.get("nodes");
    assertThat(nodes).hasSize(3);
    for (JsonNode n : nodes) {
      assertThat(n.get("checks")).hasSize(CheckId.values().length);
    }
    JsonNode node2 = nodes.get(1);
    assertThat(node2.get("facts").get("gpuCount").asInt()).isEqualTo(8);
    assertThat(node2.get("facts").get("hooks").get(0).get("executable").asBoolean()).isFalse();
    JsonNode hook = null;
    for (JsonNode c : node2.get("checks")) {
      if (c.get("id").asText().equals("hook")) {
        hook = c;
      }
    }
    assertThat(hook.get("status").asText()).isEqualTo("FAIL");
    assertThat(hook.get("fix").asText()).startsWith("sudo chmod 0755");
    JsonNode node3 = nodes.get(2);
    assertThat(node3.get("answered").asBoolean()).isFalse();
    assertThat(node3.get("problem").asText()).contains("No route to host");
    assertThat(node3.has("facts")).isFalse();
    assertGolden("report.expected.json", text);
  }

  private static void assertGolden(String name, String actual) throws IOException {
    String update = System.getProperty("golden.update");
    if (update != null) {
      Files.writeString(Path.of(update, name), actual);
    }
    try (InputStream in = CheckReportTest.class.getResourceAsStream("golden/" + name)) {
      assertThat(in).as("golden file " + name).isNotNull();
      assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
