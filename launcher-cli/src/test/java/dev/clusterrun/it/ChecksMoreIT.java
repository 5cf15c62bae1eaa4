package dev.clusterrun.it;

import static dev.clusterrun.it.CheckReports.dropInLine;
import static dev.clusterrun.it.CheckReports.result;
import static dev.clusterrun.it.ClusterrunExtension.RUN_TIMEOUT;
import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.summary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What {@code check} and the canary prove, and how a job's enroot settings hold against a site's
 * configuration, on a 3-node local cluster with 2 slots a node that {@code clusterrun setup}
 * configured: fewer ranks than slots, a foreign launch-agent hook left on the nodes, a site drop-in
 * that turns the home mount off, and one that makes every container writable.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChecksMoreIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "hosts-3x2", 2, "ws");

  static final ObjectMapper JSON = new ObjectMapper();

  static LocalCluster c;

  /** Extra flags pointing the job at CLUSTERRUN_IT_IMAGE when given (else the yaml's image). */
  static List<String> imageFlags = List.of();

  @BeforeAll
  static void setUpTheClusterWithTwoSlotsANode() {
    c = HEAD.cluster();
    HEAD.copyExamples("hello-mpi.yaml");
    Runs.keepMpiOnClusterNetwork(c);
    imageFlags = Runs.requiredImageFlags(c, HEAD.shared() + "/it-image.sqsh");
    HEAD.setup(HEAD.shared() + "/enroot-data");
  }

  // ----------------------------------------------------------------------------------------------

  @Test
  @Order(1)
  void fewerRanksThanSlotsPassTheCanaryWhereverMpirunPlacesThem() throws IOException {
    // 3 nodes x 2 slots; Open MPI fills node1 (mpirun's own), then node2, then node3.
    Result one = run("--np", "1", "--", "hostname");
    ok(one);
    assertThat(one.stdout().lines().filter(l -> l.startsWith("node"))).containsExactly("node1");
    // Open MPI starts a daemon on every node, ranks or not: each proves itself in the launch.
    assertThat(one.stderr())
        // (and how many joined the containers begun during the checks, when they did)
        .containsPattern(
            "clusterrun: proof: the daemons on node2, node3 run inside this run's container"
                + "( \\([0-9] of 2 joined [^\n]*\\))?\n")
        .doesNotContain("clusterrun-proof")
        .doesNotContain("clusterrun: canary:");
    assertThat(summary(one).path("canary").isNull()).isTrue();
    List<String> proved = new ArrayList<>();
    for (JsonNode p : summary(one).path("proof")) {
      assertThat(p.path("proven").asBoolean()).as("%s", p).isTrue();
      proved.add(p.path("node").asText());
    }
    assertThat(proved).containsExactly("node2", "node3");

    // The canary, as an explicit rehearsal, still predicts where Open MPI puts each rank.
    Result four = run("--np", "4", "--canary", "--", "hostname");
    ok(four);
    assertThat(four.stdout().lines().filter(l -> l.startsWith("node"))).isEmpty();
    assertThat(four.stderr())
        .contains("clusterrun: canary: node1: 2/2 ranks inside the container\n")
        .contains("clusterrun: canary: node2: 2/2 ranks inside the container\n")
        .contains("clusterrun: canary: node3: no rank placed here (4 ranks in all)\n");
    JsonNode canary = summary(four).path("canary");
    assertThat(canary.path("missing")).isEmpty();
    List<String> perNode = new ArrayList<>();
    for (JsonNode v : canary.path("nodes")) {
      perNode.add(
          v.path("node").asText()
              + " "
              + v.path("expected").asInt()
              + " "
              + v.path("ranks").asInt());
    }
    assertThat(perNode).containsExactly("node1 2 2", "node2 2 2", "node3 0 0");
  }

  @Test
  @Order(2)
  void aForeignLaunchAgentHookIsNamedByCheckAndStopsTheRunInItsOwnLaunch() throws IOException {
    // The seed's own hook, left on every node: it sorts after 50-clusterrun-launch-agent.sh and
    // writes a fixed agent (same container, none of the job's mounts, no run id).
    ok(c.exec("node1", "mkdir", "-p", HEAD.shared() + "/seed-app"));
    String hook =
        "#!/bin/bash\n"
            + "echo \"OMPI_MCA_orte_launch_agent=enroot start --rw --mount "
            + HEAD.shared()
            + "/seed-app:/app ${ENROOT_ROOTFS##*/} orted\" >> \"$ENROOT_ENVIRON\"\n";
    c.writeEnrootFile("hooks.d/ompi.sh", hook, "rwxr-xr-x");
    try {
      Result check = exec(HEAD.launcher(), "check", "--nodes", HEAD.hosts());
      assertThat(check.exitCode()).as("%s", check).isEqualTo(3);
      // Every node named, the file and line, the fix.
      assertThat(check.stdout())
          .contains(
              "✗ launch-agent on node1, node2, node3: the hook /etc/enroot/hooks.d/ompi.sh:2 sets"
                  + " OMPI_MCA_orte_launch_agent: it replaces the launch agent clusterrun gives"
                  + " each job")
          .contains(
              "    fix: disable it: sudo mv /etc/enroot/hooks.d/ompi.sh"
                  + " /etc/enroot/hooks.d/ompi.sh.off");
      // run's own checks stop it the same way, before anything starts.
      Result checked = run("--", "hostname");
      assertThat(checked.exitCode()).as("%s", checked).isEqualTo(3);
      assertThat(checked.stderr()).contains("launch-agent").contains("nothing was started");

      // Past the checks, the job's own launch finds the remote daemons without this run's proof,
      // and stops the run before the job's output can say anything.
      // A named container, so that the seed's agent (${ENROOT_ROOTFS##*/}) does start daemons.
      Result r = run("--skip-checks", "--container-name=foreign-agent", "--", "hostname");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      assertThat(r.stdout()).doesNotContain("node1\n").doesNotContain("node2\n");
      assertThat(r.stderr())
          .contains(
              "clusterrun: the launch did not prove itself: node2, node3: no proof from their"
                  + " daemons: another hook or setting replaces clusterrun's launch agent");
      assertThat(r.stderr()).doesNotContain("clusterrun: proof: the daemons");
      JsonNode s = summary(r);
      assertThat(s.path("outcome").asText()).isEqualTo("proof-failed");
      assertThat(s.path("exitCode").asInt()).isEqualTo(3);
      // The user's output is kept for diagnosis, but never shown as the run's.
      Path runDir = Paths.get(s.path("runDir").asText());
      assertThat(Files.readString(runDir.resolve("stdout.log"))).contains("node2");
      // Nothing of the stopped run stays on any node.
      for (String node : List.of("node1", "node2", "node3")) {
        assertThat(c.exec(node, "pgrep", "-u", c.jobUser(), "orted").out())
            .as("orted left on %s", node)
            .isBlank();
      }

      // The rehearsal sees the same through its ranks.
      Result rehearsal =
          run("--skip-checks", "--container-name=foreign-agent", "--canary", "--", "hostname");
      assertThat(rehearsal.exitCode()).as("%s", rehearsal).isEqualTo(3);
      assertThat(summary(rehearsal).path("outcome").asText()).isEqualTo("canary-failed");
    } finally {
      c.removeEnrootFile("hooks.d/ompi.sh");
      c.exec("node1", "enroot", "remove", "--force", "foreign-agent");
    }
    ok(exec(HEAD.launcher(), "check", "--nodes", HEAD.hosts(), "--only", "launch-agent"));
  }

  @Test
  @Order(3)
  void aSiteDropInThatTurnsTheHomeMountOffIsNamedWithItsFileAndLine() throws IOException {
    // enroot keeps the first value it reads: a site drop-in that sorts before clusterrun's wins.
    c.writeEnrootFile("node2", "enroot.conf.d/10-site.conf", "ENROOT_MOUNT_HOME no\n", "rw-r--r--");
    try {
      Result r = exec(HEAD.launcher(), "check", "--nodes", HEAD.hosts(), "--json");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      JsonNode report = JSON.readTree(r.stdout());
      JsonNode mountHome = result(report, "node2", "mount-home");
      assertThat(mountHome.path("status").asText()).isEqualTo("FAIL");
      assertThat(mountHome.path("reason").asText())
          .startsWith(
              "no ~/.ssh inside the container: ENROOT_MOUNT_HOME no (from"
                  + " /etc/enroot/enroot.conf.d/10-site.conf:1)");
      assertThat(mountHome.path("fix").asText())
          .startsWith("set ENROOT_MOUNT_HOME yes in /etc/enroot/enroot.conf.d/10-site.conf:1");
      int line = dropInLine(c, "node2", "ENROOT_MOUNT_HOME");
      JsonNode dropIn = result(report, "node2", "dropin");
      assertThat(dropIn.path("status").asText()).isEqualTo("WARN");
      assertThat(dropIn.path("reason").asText())
          .contains(
              "ENROOT_MOUNT_HOME (line "
                  + line
                  + ") is overridden by /etc/enroot/enroot.conf.d/10-site.conf:1");
      assertThat(result(report, "node1", "mount-home").path("reason").asText())
          .isEqualTo(
              "ENROOT_MOUNT_HOME yes (from /etc/enroot/enroot.conf.d/50-clusterrun.conf:"
                  + line
                  + ")");
    } finally {
      c.removeEnrootFile("enroot.conf.d/10-site.conf");
    }
  }

  @Test
  @Order(4)
  void aSiteThatMakesContainersWritableCannotMakeADefaultRunWritable() {
    c.writeEnrootFile("enroot.conf.d/90-site.conf", "ENROOT_ROOTFS_WRITABLE yes\n", "rw-r--r--");
    String probe =
        "if touch /clusterrun-ro-probe 2>/dev/null; then echo \"wrote / on $(hostname)\";"
            + " else echo \"read-only / on $(hostname)\"; fi";
    try {
      Result ro = run("--", "sh", "-c", probe);
      ok(ro);
      assertThat(ro.stdout().lines().filter(l -> l.contains(" / on ")).sorted())
          .containsExactly(
              "read-only / on node1",
              "read-only / on node1",
              "read-only / on node2",
              "read-only / on node2",
              "read-only / on node3",
              "read-only / on node3");
      // Asked for, writable it is, on every node (through the agent too).
      Result rw = run("--container-writable", "--", "sh", "-c", probe);
      ok(rw);
      assertThat(rw.stdout().lines().filter(l -> l.contains(" / on ")).distinct().sorted())
          .containsExactly("wrote / on node1", "wrote / on node2", "wrote / on node3");
    } finally {
      c.removeEnrootFile("enroot.conf.d/90-site.conf");
    }
  }

  @Test
  @Order(5)
  void aWorkspaceANodeDoesNotShareStopsTheRunNamingTheNodeAndLeavesNoProbe() throws IOException {
    // node3 sees a directory of its own at the workspace's path: its ranks would read and write
    // other files than the head's. The workspace is proven in the rounds of the checks' proof.
    c.isolate("node3", HEAD.ws());
    try {
      Result r = run("--", "hostname");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      assertThat(r.stderr())
          .contains("clusterrun: workspace " + HEAD.ws() + ": not shared with the head on node3 (")
          .contains("put the workspace on the shared filesystem")
          .doesNotContain("node2 (")
          .doesNotContain("running:");
      assertThat(r.stdout().lines().filter(l -> l.startsWith("node"))).isEmpty();
    } finally {
      c.unisolate("node3", HEAD.ws());
    }
    try (java.util.stream.Stream<Path> s = Files.list(Paths.get(HEAD.ws()))) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith(".clusterrun-probe-"));
    }
    // Shared again, the same run goes ahead.
    ok(run("--", "hostname"));
  }

  @Test
  @Order(6)
  void aJobThatChoosesItsHostsWithHostIsNotFailedForTheDaemonsOpenMpiNeverStarts()
      throws IOException {
    // `--host node1,node2`: Open MPI starts a daemon on node2 only. Before, the run waited for
    // node3's proof that could never come, held the output and failed with exit 3.
    String job = HEAD.shared() + "/examples/hello-two-hosts.yaml";
    c.writeAsJobUser(
        job,
        Files.readString(
                LocalCluster.script()
                    .getParent()
                    .getParent()
                    .getParent()
                    .resolve("examples/hello-mpi.yaml"))
            .replace(
                "mca: {btl: \"tcp,self\"}",
                "mca: {btl: \"tcp,self\"}\n  args: [--host, \"node1,node2\", --map-by, node]"));
    List<String> cmd = HEAD.command(HEAD.onNodes("run", job));
    cmd.addAll(imageFlags);
    cmd.addAll(List.of("--np", "2", "--", "hostname"));
    Result r = exec(cmd.toArray(new String[0]));
    ok(r);
    assertThat(r.stdout().lines().filter(l -> l.startsWith("node")).sorted())
        .containsExactly("node1", "node2");
    assertThat(r.stderr())
        .contains(
            "clusterrun: proof: the job's mpirun arguments choose the hosts (--host node1,node2"
                + " --map-by node): daemons are required on node2 only\n")
        .containsPattern(
            "clusterrun: proof: the daemons on node2 run inside this run's container"
                + "( \\(1 of 1 joined [^\n]*\\))?\n");
    List<String> proved = new ArrayList<>();
    for (JsonNode p : summary(r).path("proof")) {
      assertThat(p.path("proven").asBoolean()).as("%s", p).isTrue();
      proved.add(p.path("node").asText());
    }
    assertThat(proved).containsExactly("node2");
  }

  @Test
  @Order(7)
  void mpirunsDaemonsRideOnTheHeadsSshProbeUnlessTheUserChoosesTheirOwnSshOptions()
      throws IOException {
    // The head's SSH probe keeps its logins as OpenSSH masters: clusterrun's checks, proofs and
    // search for leftovers run over them, and mpirun's ssh (inside the container on the head)
    // starts each daemon over them too. One login a node, where there were three.
    long[] before = {logins("node2"), logins("node3")};
    java.util.Set<String> masters = mastersOnTheHead();
    Result r = run("--", "hostname");
    ok(r);
    assertThat(r.stdout().lines().filter(l -> l.startsWith("node")).sorted())
        .containsExactly("node1", "node1", "node2", "node2", "node3", "node3");
    assertThat(r.stderr())
        .containsPattern(
            "running: enroot start .*'OMPI_MCA_plm_rsh_args=-o ControlMaster=no -o"
                + " ControlPath=/dev/shm/clusterrun-ssh\\.[A-Za-z0-9]+/%n'");
    assertThat(logins("node2") - before[0]).as("logins on node2").isEqualTo(1);
    assertThat(logins("node3") - before[1]).as("logins on node3").isEqualTo(1);
    assertNoMastersLeftOnTheHead(masters);

    // ssh options of the user's own in Open MPI's file win: mpirun's ssh is left alone (and logs
    // in once more on every node).
    String mca = c.jobHome() + "/.openmpi/mca-params.conf";
    String kept = c.exec("node1", "cat", mca).stdout();
    c.writeAsJobUser(mca, kept + "plm_rsh_args = -o BatchMode=yes\n");
    try {
      before = new long[] {logins("node2"), logins("node3")};
      masters = mastersOnTheHead();
      Result own = run("--", "hostname");
      ok(own);
      assertThat(own.stderr()).doesNotContain("plm_rsh_args");
      assertThat(logins("node2") - before[0]).as("logins on node2").isEqualTo(2);
      assertThat(logins("node3") - before[1]).as("logins on node3").isEqualTo(2);
      assertNoMastersLeftOnTheHead(masters);
    } finally {
      c.writeAsJobUser(mca, kept);
    }
  }

  /** Logins node's sshd accepted so far. */
  static long logins(String node) throws IOException {
    try (java.util.stream.Stream<String> lines =
        Files.lines(c.stateDir().resolve("nodes").resolve(node).resolve("sshd.log"))) {
      return lines.filter(l -> l.startsWith("Accepted ")).count();
    }
  }

  /**
   * The master directories in the head's /dev/shm and the job user's master processes, by name: a
   * run killed by another test class leaves its master until it exits by itself (120 s idle).
   */
  static java.util.Set<String> mastersOnTheHead() {
    java.util.Set<String> m = new java.util.TreeSet<>();
    ok(c.exec("node1", "sh", "-c", "ls -a /dev/shm"))
        .stdout()
        .lines()
        .filter(l -> l.startsWith("clusterrun-ssh."))
        .forEach(m::add);
    ok(c.exec("node1", "ps", "-u", c.jobUser(), "-o", "args="))
        .stdout()
        .lines()
        .map(l -> l.replaceAll(".*(clusterrun-ssh\\.[A-Za-z0-9]+).*", "$1"))
        .filter(l -> l.startsWith("clusterrun-ssh."))
        .forEach(m::add);
    return m;
  }

  /** No master directory or master process left on the head that was not there {@code before}. */
  static void assertNoMastersLeftOnTheHead(java.util.Set<String> before) {
    java.util.Set<String> now = mastersOnTheHead();
    now.removeAll(before);
    assertThat(now).as("masters this run left on the head").isEmpty();
  }

  // ----------------------------------------------------------------------------------------------

  /** {@code clusterrun run examples/hello-mpi.yaml --nodes H --workspace WS [image] ARGS}. */
  static Result run(String... args) {
    List<String> cmd = HEAD.onNodes("run", "examples/hello-mpi.yaml");
    cmd.addAll(imageFlags);
    cmd.addAll(List.of(args));
    return HEAD.run(RUN_TIMEOUT, List.of(), cmd);
  }

  static Result exec(String... cmd) {
    Result r = c.exec("node1", false, null, RUN_TIMEOUT, List.of(cmd));
    System.err.println("--- " + String.join(" ", cmd) + "\n" + r);
    return r;
  }
}
