package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole check with real {@code sh} "nodes": each its own UTS namespace (own hostname), one
 * sysconf directory as {@code clusterrun setup} leaves it, a shared data path, a stand-in {@code
 * ssh} on the head.
 */
class CheckFlowTest {
  @TempDir Path tmp;
  Path sysconf;
  Path data;
  Path bin;
  FanOut pool;

  @BeforeEach
  void setUp() throws IOException {
    sysconf = ShNodeShell.sysconf(tmp);
    data = Files.createDirectories(tmp.resolve("shared/data"));
    Files.writeString(
        sysconf.resolve("enroot.conf.d/50-clusterrun.conf"),
        "ENROOT_RUNTIME_PATH "
            + tmp
            + "/runtime-$(hostname)-$(id -u)\n"
            + "ENROOT_CACHE_PATH "
            + tmp
            + "/cache-$(hostname)-$(id -u)\n"
            + "ENROOT_DATA_PATH "
            + data
            + "\nENROOT_MOUNT_HOME yes\n");
    Path hook = sysconf.resolve("hooks.d/50-clusterrun-launch-agent.sh");
    Files.writeString(hook, "#!/bin/bash\n# clusterrun-launch-agent-hook version 2\n");
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
    bin = Files.createDirectories(tmp.resolve("bin"));
    Path ssh = bin.resolve("ssh");
    Files.writeString(
        ssh,
        "#!/bin/sh\n"
            + "host=$(printf '%s\\n' \"$@\" | tail -n 2 | head -n 1)\n"
            + "[ \"$host\" = n3 ] && { echo 'Host key verification failed.' >&2; exit 255; }\n"
            + "exit 0\n");
    Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createDirectories(tmp.resolve("home/.ssh"));
    pool = new FanOut(8);
  }

  @AfterEach
  void tearDown() {
    pool.close();
  }

  private ShNodeShell node(String name, String hostname, String... more) {
    List<String> prefix = new ArrayList<>();
    prefix.addAll(
        List.of(
            "unshare", "-u", "sh", "-c", "hostname \"$1\" && shift && exec \"$@\"", "x", hostname));
    prefix.addAll(List.of(more));
    return ShNodeShell.of(name, tmp.resolve("home").toString())
        .withEnv("PATH", bin + ":/usr/bin:/bin")
        .withPrefix(prefix.toArray(String[]::new));
  }

  private static Hostfile hostfile(String... names) {
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      hosts.add(new Host(names[i], 2, true, 0, i + 1));
    }
    return new Hostfile("hosts.txt", hosts);
  }

  @Test
  void wholeCheckOverRealShellsWithOneUnreachableAndOneSlowNode() throws Exception {
    ShNodeShell probe = node("n1", "n1");
    Assumptions.assumeTrue(probe.run("true", Duration.ofSeconds(5)).ok(), "no UTS namespaces");

    Map<String, NodeShell> shells = new LinkedHashMap<>();
    shells.put("n1", node("n1", "n1"));
    shells.put("n2", node("n2", "n2"));
    shells.put("n3", node("n3", "n3"));
    shells.put("slow", node("slow", "slow", "sh", "-c", "sleep 30; exec \"$@\"", "x"));
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Progress progress =
        new Progress() {
          @Override
          public void phase(String phase, List<String> nodes) {
            events.add("phase " + phase);
          }

          @Override
          public void finished(String phase, String node, List<String> pending) {
            events.add(node + " pending=" + new java.util.TreeSet<>(pending));
          }
        };
    Session session =
        new Session(
            hostfile("n1", "n2", "n3", "gone", "slow"),
            "n1",
            shells,
            Map.of("gone", "connect to gone port 22: No route to host"),
            pool,
            progress);
    CheckFlow flow =
        new CheckFlow(
            new ExpectedSetup(
                sysconf.toString(),
                ExpectedSetup.HOOK_FILE_NAME,
                2,
                null,
                ExpectedSetup.DROP_IN_FILE_NAME,
                null),
            Duration.ofSeconds(8),
            Duration.ofSeconds(20));

    long start = System.nanoTime();
    CheckReport report =
        flow.check(session, new CheckJob("pytorch", List.of(), null), CheckSelection.all());
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took)
        .as("the slow node only costs its own timeout")
        .isLessThan(Duration.ofSeconds(20));
    assertThat(report.passed()).isFalse();
    assertThat(report.result("gone", CheckId.REACHABLE).orElseThrow().reason())
        .isEqualTo("connect to gone port 22: No route to host");
    assertThat(report.result("slow", CheckId.REACHABLE).orElseThrow().reason())
        .contains("timed out");
    for (String n : List.of("n1", "n2", "n3")) {
      assertThat(report.result(n, CheckId.REACHABLE).orElseThrow().status())
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.HOSTNAME_UNIQUE).orElseThrow().status())
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.DATA_PATH_SHARED).orElseThrow().status())
          .as(n)
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.RUNTIME_PATH).orElseThrow().status())
          .as(() -> n + ": " + report.result(n, CheckId.RUNTIME_PATH).orElseThrow().reason())
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.HOOK).orElseThrow().status()).isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.DROPIN).orElseThrow().status())
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.CONFIG_IDENTICAL).orElseThrow().status())
          .isEqualTo(CheckStatus.PASS);
      assertThat(report.result(n, CheckId.ENROOT).orElseThrow().status())
          .isEqualTo(CheckStatus.FAIL); // no enroot on this machine
    }
    assertThat(report.result("n2", CheckId.SSH_FROM_HEAD).orElseThrow().status())
        .isEqualTo(CheckStatus.PASS);
    assertThat(report.result("n3", CheckId.SSH_FROM_HEAD).orElseThrow().reason())
        .endsWith("Host key verification failed.");
    assertThat(report.result("n1", CheckId.CONTAINER).orElseThrow().reason())
        .contains("not created yet");
    assertThat(report.results()).hasSize(5 * CheckId.values().length);

    assertThat(events).startsWith("phase facts");
    assertThat(events.get(events.size() - 3))
        .as("the slow node answers last")
        .startsWith("slow pending=[]");
    assertThat(events).anyMatch(e -> e.startsWith("n2 pending=") && e.contains("slow"));
    assertThat(events).contains("phase data-path-shared", "phase ssh-from-head");

    try (var s = Files.list(data)) {
      assertThat(s).as("probe removed").isEmpty();
    }

    JsonNode json = new ObjectMapper().readTree(report.renderJson());
    assertThat(json.get("passed").asBoolean()).isFalse();
    assertThat(json.get("nodes")).hasSize(5);
    JsonNode n1 = json.get("nodes").get(0);
    assertThat(n1.get("node").asText()).isEqualTo("n1");
    assertThat(n1.get("head").asBoolean()).isTrue();
    assertThat(n1.get("facts").get("hostname").asText()).isEqualTo("n1");
    assertThat(n1.get("facts").get("enroot").get("ENROOT_DATA_PATH").get("value").asText())
        .isEqualTo(data.toString());
    assertThat(n1.get("checks")).hasSize(CheckId.values().length);
    assertThat(json.get("nodes").get(3).get("problem").asText()).contains("No route to host");
    assertThat(json.get("timings").get("totalMs").asLong()).isPositive();
  }

  @Test
  void onlySelectedChecksRunAndTheWireIsSkippedWhenNotNeeded() throws InterruptedException {
    ShNodeShell a = ShNodeShell.of("a", tmp.toString());
    ShNodeShell b = ShNodeShell.of("b", tmp.toString());
    Session session =
        new Session(
            hostfile("a", "b"),
            "a",
            Map.of("a", a, "b", b),
            Map.of(),
            new FanOut(1),
            Progress.NONE);
    CheckReport r =
        new CheckFlow(
                new ExpectedSetup(sysconf.toString(), "h.sh", 1, null, "d.conf", null),
                Duration.ofSeconds(10),
                Duration.ofSeconds(10))
            .check(session, CheckJob.NONE, CheckSelection.parse(List.of("uid-gid"), List.of()));
    assertThat(r.checks()).containsExactly(CheckId.UID_GID);
    assertThat(r.results()).hasSize(2).allMatch(x -> x.status() == CheckStatus.PASS);
    assertThat(a.calls).as("facts only: no proof, no SSH probe").isEqualTo(1);
    assertThat(b.calls).isEqualTo(1);
  }
}
