package dev.clusterrun.it;

import static dev.clusterrun.it.CheckReports.dropInLine;
import static dev.clusterrun.it.CheckReports.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.core.check.CheckId;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code clusterrun check} as an operator runs it: the built launcher, as the job user on node1
 * (the head), against a 3-node local cluster that {@code clusterrun setup} configured. Each case
 * breaks one thing the way it breaks on real clusters, asserts what the user reads (exit code, the
 * table's failure lines and fixes, the JSON), and puts it back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CheckIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "check-it-hosts", 1, null);

  static final String HOOK = "/etc/enroot/hooks.d/50-clusterrun-launch-agent.sh";
  static final String DROP_IN = "/etc/enroot/enroot.conf.d/50-clusterrun.conf";
  static final ObjectMapper JSON = new ObjectMapper();

  static LocalCluster c;
  static String dataPath;

  @BeforeAll
  static void setUpTheClusterWithClusterrunSetup() {
    c = HEAD.cluster();
    dataPath = c.sharedDir() + "/enroot-data";
    Result setup = HEAD.setup(dataPath);
    assertThat(setup.stdout()).contains("setup: 3 changed, 0 unchanged, 0 failed");
  }

  static Result check(String... args) {
    List<String> cmd = new ArrayList<>(List.of(HEAD.launcher(), "check", "--nodes", HEAD.hosts()));
    cmd.addAll(List.of(args));
    return c.exec("node1", cmd.toArray(String[]::new));
  }

  /** The table of {@code check} that found a problem (exit 3). */
  static String failedTable() {
    Result r = check();
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    return r.stdout();
  }

  static JsonNode json(Result r) throws IOException {
    assertThat(r.stderr()).as("%s", r).doesNotContain("Exception");
    return JSON.readTree(r.stdout());
  }

  /** node → (check id → status), in the report's order. */
  static Map<String, Map<String, String>> statuses(JsonNode report) {
    Map<String, Map<String, String>> m = new LinkedHashMap<>();
    for (JsonNode n : report.get("nodes")) {
      Map<String, String> checks = new LinkedHashMap<>();
      for (JsonNode x : n.get("checks")) {
        checks.put(x.get("id").asText(), x.get("status").asText());
      }
      m.put(n.get("node").asText(), checks);
    }
    return m;
  }

  /** {@code node/check} of every FAIL, sorted. */
  static List<String> failures(JsonNode report) {
    TreeSet<String> out = new TreeSet<>();
    statuses(report)
        .forEach(
            (node, checks) ->
                checks.forEach(
                    (id, status) -> {
                      if (status.equals("FAIL")) {
                        out.add(node + "/" + id);
                      }
                    }));
    return List.copyOf(out);
  }

  static String runtimePath() {
    return "/tmp/enroot-runtime-" + c.jobUid() + "/enroot";
  }

  @Test
  @Order(1)
  void healthyClusterPassesEveryCheckAndTheJsonListsEveryNodeAndCheck() throws IOException {
    Result table = check();
    assertThat(table.exitCode()).as("%s", table).isZero();
    // The table speaks UTF-8 even in the C locale of a non-interactive SSH session.
    assertThat(table.stdout())
        .contains("node1 (head)")
        .contains("✓ pass  ✗ fail  ! warning  – skipped")
        .contains("3 nodes, 20 checks: 47 passed, 0 failed, 0 warnings, 13 skipped")
        .doesNotContain("\n✗ ")
        .doesNotContain("?");
    assertThat(table.stdout().lines().filter(l -> l.matches("node[23] +( +✓| +–)+"))).hasSize(2);

    Result r = check("--json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    JsonNode report = json(r);
    assertThat(report.get("passed").asBoolean()).isTrue();
    assertThat(report.get("head").asText()).isEqualTo("node1");
    List<String> ids = new ArrayList<>();
    report.get("checks").forEach(x -> ids.add(x.get("id").asText()));
    assertThat(ids).containsExactlyElementsOf(CheckId.ids());
    Map<String, Map<String, String>> s = statuses(report);
    assertThat(s.keySet()).containsExactly("node1", "node2", "node3");
    for (String node : s.keySet()) {
      assertThat(s.get(node).keySet()).as(node).containsExactlyElementsOf(CheckId.ids());
      s.get(node)
          .forEach(
              (id, status) -> {
                // No job given (container, squashfuse, image), no GPUs here (gpu-slots), the head
                // needs no SSH.
                boolean skipped =
                    id.equals("container")
                        || id.equals("image")
                        || id.equals("squashfuse")
                        || id.equals("gpu-slots")
                        || (id.equals("ssh-from-head") && node.equals("node1"));
                assertThat(status).as(node + " " + id).isEqualTo(skipped ? "SKIP" : "PASS");
              });
    }
    assertThat(result(report, "node3", "data-path-shared").get("reason").asText())
        .startsWith("shared with the head: " + dataPath + " [");
    assertThat(result(report, "node2", "ssh-from-head").get("reason").asText())
        .isEqualTo("`ssh node2 true` works from node1");
  }

  @Test
  @Order(2)
  void aDataPathNodeLocalOnNode3FailsTheSharingProofNamingNode3() throws IOException {
    c.isolate("node3", dataPath);
    try {
      Result r = check("--json");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      JsonNode report = json(r);
      assertThat(report.get("passed").asBoolean()).isFalse();
      assertThat(failures(report)).containsExactly("node3/data-path-shared");
      JsonNode x = result(report, "node3", "data-path-shared");
      assertThat(x.get("reason").asText())
          .startsWith("not shared: node3 does not see the head's probe " + dataPath + "/")
          .contains("(ENROOT_DATA_PATH from " + DROP_IN + ":")
          .endsWith("[tmpfs on " + dataPath + "]");
      assertThat(x.get("fix").asText()).contains("ENROOT_DATA_PATH").contains("clusterrun setup");

      Result table = check();
      assertThat(table.exitCode()).isEqualTo(3);
      assertThat(table.stdout())
          .contains("✗ data-path-shared on node3: not shared: node3 does not see the head's probe")
          .contains(
              "    fix: set ENROOT_DATA_PATH on every node to one directory on storage all nodes"
                  + " share (e.g. NFS), with `clusterrun setup`")
          .contains("1 failed");
    } finally {
      c.unisolate("node3", dataPath);
    }
  }

  @Test
  @Order(3)
  void aRuntimePathNode2sJobUserCannotCreateIsNamedWithItsFix() {
    // Someone else (here root) made the per-user directory under /tmp on node2 first: the
    // trade-off the drop-in's comment warns about.
    String parent = runtimePath().substring(0, runtimePath().lastIndexOf('/'));
    // (enroot itself makes the directory, as the job user, whenever it runs: remove that first.)
    String q = dev.clusterrun.core.remote.ShellQuote.quote(parent);
    assertThat(
            c.exec("node2", true, "sh", "-c", "rm -rf -- " + q + " && mkdir -m 0755 -- " + q)
                .exitCode())
        .isZero();
    try {
      assertThat(failedTable())
          .contains(
              "✗ runtime-path on node2: "
                  + runtimePath()
                  + " (= "
                  + dev.clusterrun.core.setup.SetupSpec.DEFAULT_RUNTIME_PATH
                  + ", from "
                  + DROP_IN
                  + ":"
                  + dropInLine(c, "node2", "ENROOT_RUNTIME_PATH")
                  + ") is not writable: mkdir: cannot create directory '"
                  + runtimePath()
                  + "': Permission denied\n"
                  + "    fix: make "
                  + runtimePath()
                  + " creatable by "
                  + c.jobUser()
                  + " on node2, or set another ENROOT_RUNTIME_PATH in "
                  + DROP_IN
                  + ":"
                  + dropInLine(c, "node2", "ENROOT_RUNTIME_PATH")
                  + "\n")
          // enroot makes its directories before any command, `enroot version` included.
          .contains(
              "✗ enroot on node2: `enroot version` failed: exit 1: mkdir: cannot create directory '"
                  + runtimePath()
                  + "': Permission denied\n"
                  + "    fix: make enroot's paths writable for the job user: run `clusterrun setup`"
                  + " (see runtime-path)\n")
          .contains("2 failed");
    } finally {
      c.exec("node2", true, "rm", "-rf", parent);
    }
  }

  @Test
  @Order(4)
  void aHookThatIsNotExecutableIsNamedOnItsNode() throws IOException {
    assertThat(c.exec("node2", true, "chmod", "a-x", HOOK).exitCode()).isZero();
    try {
      assertThat(failedTable())
          .contains(
              "✗ hook on node2: "
                  + HOOK
                  + " is not executable (mode 644): enroot skips a"
                  + " non-executable hook SILENTLY")
          .contains("    fix: sudo chmod 0755 " + HOOK + "\n");
      assertThat(failures(json(check("--json")))).containsExactly("node2/hook");
    } finally {
      c.exec("node2", true, "chmod", "0755", HOOK);
    }
  }

  @Test
  @Order(5)
  void twoNodesWithOneHostnameAreBothNamed() throws IOException {
    assertThat(c.exec("node3", true, "hostname", "node2").exitCode()).isZero();
    try {
      Result r = check("--json");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      JsonNode report = json(r);
      assertThat(failures(report))
          .containsExactly("node2/hostname-unique", "node3/hostname-unique");
      assertThat(result(report, "node3", "hostname-unique").get("reason").asText())
          .startsWith("hostname 'node2' is also the hostname of node2");
      assertThat(result(report, "node2", "hostname-unique").get("reason").asText())
          .startsWith("hostname 'node2' is also the hostname of node3");
      assertThat(result(report, "node3", "hostname-unique").get("fix").asText())
          .isEqualTo("give node3 its own hostname (hostnamectl set-hostname NAME)");
    } finally {
      c.exec("node3", true, "hostname", "node3");
    }
    assertThat(c.exec("node3", "hostname").out()).isEqualTo("node3");
  }

  @Test
  @Order(6)
  void aChangedHostKeyIsRefusedAndAnUnreachableNodeNamedWithinTheConnectTimeout()
      throws IOException {
    // node2's key in known_hosts is replaced by another one (as after a reinstall, or an attack);
    // node4 is a name ~/.ssh/config sends to an address of the cluster subnet with nobody there.
    Path knownHosts = c.knownHosts();
    Path saved = Files.createTempFile("check-it-known-hosts", "");
    Files.copy(knownHosts, saved, StandardCopyOption.REPLACE_EXISTING);
    Path sshConfig = c.jobHome().resolve(".ssh/config");
    assertThat(sshConfig).doesNotExist();
    Path hosts4 = Paths.get(c.sharedDir() + "/check-it-hosts4");
    try {
      List<String> lines = Files.readAllLines(knownHosts);
      int line = 0;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("node2,") || lines.get(i).startsWith("node2 ")) {
          line = i + 1;
          String[] f = lines.get(i).split(" ");
          lines.set(i, f[0] + " " + f[1] + " " + otherEd25519Key());
        }
      }
      assertThat(line).as("node2 in %s", knownHosts).isPositive();
      Files.write(knownHosts, lines);

      // An address on the cluster's network that no node of this cluster has.
      String nobody = c.facts().get("HOST_ADDR").replaceAll("\\.1$", ".250");
      Files.writeString(sshConfig, "Host node4\n  HostName " + nobody + "\n");
      Files.setPosixFilePermissions(
          sshConfig, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      c.exec("node1", true, "chown", c.jobUser() + ":", sshConfig.toString());
      Files.writeString(hosts4, c.hostfile(1) + "node4 slots=1\n");

      long start = System.nanoTime();
      Result r =
          c.exec(
              "node1",
              HEAD.launcher(),
              "check",
              "--nodes",
              hosts4.toString(),
              "--connect-timeout",
              "2s",
              "--json");
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      JsonNode report = json(r);
      assertThat(statuses(report).keySet()).containsExactly("node1", "node2", "node3", "node4");
      assertThat(failures(report)).containsExactly("node2/reachable", "node4/reachable");

      String changed = result(report, "node2", "reachable").get("reason").asText();
      assertThat(changed)
          .contains("host key verification failed")
          .contains("the ssh-ed25519 key of node2 has CHANGED")
          .contains("the old key is at " + knownHosts + ":" + line);
      assertThat(result(report, "node4", "reachable").get("reason").asText())
          .isEqualTo("connection timed out after 2 s (" + nobody + " port 22)");
      // The others still report, fully.
      for (String node : List.of("node1", "node3")) {
        assertThat(statuses(report).get(node))
            .as(node)
            .containsEntry("reachable", "PASS")
            .containsEntry("data-path-shared", "PASS")
            .containsEntry("hook", "PASS")
            .doesNotContainValue("FAIL");
      }
      // Connect timeout 2 s, plus the JVM and the checks of the others on a loaded machine.
      assertThat(seconds).isLessThan(12);
    } finally {
      Files.write(knownHosts, Files.readAllBytes(saved)); // in place: owner and mode stay
      Files.deleteIfExists(saved);
      Files.deleteIfExists(sshConfig);
      Files.deleteIfExists(hosts4);
    }
    assertThat(check().exitCode()).as("restored").isZero();
  }

  /** A fresh ed25519 public key (base64 blob) that belongs to no node. */
  static String otherEd25519Key() throws IOException {
    Path dir = Files.createTempDirectory("check-it-key");
    try {
      Process p =
          new ProcessBuilder(
                  "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir + "/k", "-C", "x")
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      assertThat(p.waitFor()).isZero();
      return Files.readString(dir.resolve("k.pub")).split(" ")[1];
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      Files.deleteIfExists(dir.resolve("k"));
      Files.deleteIfExists(dir.resolve("k.pub"));
      Files.deleteIfExists(dir);
    }
  }

  @Test
  @Order(7)
  void onlyAndSkipSelectChecksAndAnUnknownCheckIsBadInputWithADidYouMean() throws IOException {
    JsonNode only = json(check("--only", "hook,hostname-unique", "--json"));
    List<String> ids = new ArrayList<>();
    only.get("checks").forEach(x -> ids.add(x.get("id").asText()));
    assertThat(ids).containsExactly("hook", "hostname-unique");
    statuses(only)
        .forEach(
            (node, checks) ->
                assertThat(checks)
                    .as(node)
                    .containsExactly(
                        Map.entry("hook", "PASS"), Map.entry("hostname-unique", "PASS")));

    Result skip = check("--skip", "ssh-from-head", "--skip", "data-path-shared,gpu-slots");
    assertThat(skip.exitCode()).as("%s", skip).isZero();
    assertThat(skip.stdout()).contains("3 nodes, 17 checks:").doesNotContain("ssh-from-head");

    // A skipped check that would fail does not fail the run.
    c.isolate("node3", dataPath);
    try {
      assertThat(check("--skip", "data-path-shared").exitCode()).isZero();
    } finally {
      c.unisolate("node3", dataPath);
    }

    Result typo = check("--only", "hok");
    assertThat(typo.exitCode()).as("%s", typo).isEqualTo(2);
    assertThat(typo.stdout()).isEmpty();
    assertThat(typo.stderr())
        .startsWith("clusterrun: --only: unknown check 'hok'; did you mean 'hook'?");
    Result skipTypo = check("--skip", "ssh-form-head");
    assertThat(skipTypo.exitCode()).isEqualTo(2);
    assertThat(skipTypo.stderr())
        .startsWith(
            "clusterrun: --skip: unknown check 'ssh-form-head'; did you mean 'ssh-from-head'?");

    // Nothing left to check is bad input, never a pass.
    Result none = check("--only=hook", "--skip=hook");
    assertThat(none.exitCode()).as("%s", none).isEqualTo(2);
    assertThat(none.stdout()).isEmpty();
    assertThat(none.stderr())
        .isEqualTo(
            "clusterrun: --skip: skips every check --only selects (hook); no check would run\n");
  }
}
