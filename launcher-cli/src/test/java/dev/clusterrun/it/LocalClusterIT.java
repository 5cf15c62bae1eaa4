package dev.clusterrun.it;

import static dev.clusterrun.it.LocalCluster.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The local cluster itself: three namespace nodes with their own sshd, a shared home, node-local
 * enroot configuration, and a real Open MPI job whose ranks run inside enroot containers (the
 * stand-in, or a real enroot with {@code CLUSTERRUN_IT_REAL_ENROOT=1} and {@code
 * CLUSTERRUN_IT_IMAGE=path/to/image.sqsh} from build-image.sh).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterIT {
  @RegisterExtension static LocalClusterExtension CLUSTER = new LocalClusterExtension(3);

  static LocalCluster c;

  static final String CONTAINER = "lcit";
  static String dataPath;
  static String mpiFlags;

  @BeforeAll
  static void containerOnSharedDataPath() {
    c = CLUSTER.cluster();
    dataPath = CLUSTER.shared() + "/enroot-data/user-" + c.jobUid();
    // What clusterrun's setup would write: a per-user runtime path, a shared data path, the home.
    Runs.enrootPaths(
        c,
        "clusterrun-it",
        CLUSTER.shared() + "/enroot-data",
        CLUSTER.shared() + "/enroot-cache",
        true);
    // An image from build-image.sh when given (required with a real enroot), else the tiny one.
    Runs.containerAt(c, CONTAINER, CLUSTER.shared() + "/it-image.sqsh");

    // The launch agent, as the hook on every node hands it to mpirun inside the container.
    mpiFlags = "--mount " + CLUSTER.shared() + ":" + CLUSTER.shared();
    writeAgentHook("rwxr-xr-x");

    Runs.compileRing(c, CLUSTER.shared());
    c.writeAsJobUser(CLUSTER.shared() + "/hosts", c.hostfile(1));
  }

  static void writeAgentHook(String mode) {
    c.writeEnrootFile(
        "hooks.d/50-launch-agent.sh",
        "#!/bin/bash\n"
            + "echo \"OMPI_MCA_orte_launch_agent=enroot start "
            + mpiFlags
            + " "
            + CONTAINER
            + " orted\" >> \"$ENROOT_ENVIRON\"\n",
        mode);
  }

  static List<String> mpirun(String... program) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "enroot",
                "start",
                "--mount",
                CLUSTER.shared() + ":" + CLUSTER.shared(),
                CONTAINER,
                "mpirun",
                "--hostfile",
                CLUSTER.shared() + "/hosts",
                "-np",
                "3",
                "--mca",
                "btl",
                "tcp,self"));
    cmd.addAll(Runs.mcaOnClusterNetwork(c));
    cmd.addAll(List.of(program));
    return cmd;
  }

  @Test
  @Order(1)
  void jobUserSshesFromNodeToNodeByNameWithStrictHostKeys() {
    Result r =
        c.exec(
            "node1",
            "ssh",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=yes",
            "node2",
            "hostname");
    assertThat(ok(r).out()).isEqualTo("node2");
    Result byAddress =
        c.exec(
            "node3",
            "ssh",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=yes",
            c.address("node1"),
            "id -un; hostname");
    assertThat(ok(byAddress).out()).isEqualTo(c.jobUser() + "\nnode1");
    for (String node : c.nodes()) {
      assertThat(ok(c.exec(node, "hostname")).out()).isEqualTo(node);
    }
  }

  @Test
  @Order(2)
  void homeIsSharedButTmpAndEtcEnrootAreNodeLocal() {
    String token = UUID.randomUUID().toString();
    ok(c.sh("node2", "echo " + token + " > ~/token-home && echo " + token + " > /tmp/token-tmp"));
    for (String node : c.nodes()) {
      assertThat(ok(c.sh(node, "cat ~/token-home")).out()).as(node).isEqualTo(token);
    }
    assertThat(c.sh("node1", "cat /tmp/token-tmp").exitCode()).isNotZero();
    assertThat(ok(c.sh("node2", "cat /tmp/token-tmp")).out()).isEqualTo(token);

    ok(c.exec("node1", true, "sh", "-c", "echo " + token + " > /etc/enroot/node-marker"));
    assertThat(ok(c.exec("node1", "cat", "/etc/enroot/node-marker")).out()).isEqualTo(token);
    assertThat(c.exec("node2", "cat", "/etc/enroot/node-marker").exitCode()).isNotZero();
    assertThat(c.exec("node3", "cat", "/etc/enroot/node-marker").exitCode()).isNotZero();
    assertThat(Files.exists(Paths.get("/etc/enroot/node-marker"))).isFalse();
    ok(c.exec("node1", true, "rm", "/etc/enroot/node-marker"));
  }

  @Test
  @Order(3)
  void isolateHidesAPathOnOneNodeOnlyAndUnisolateRestoresIt() {
    String dir = CLUSTER.shared() + "/isolate-" + UUID.randomUUID();
    ok(c.sh("node1", "mkdir " + dir + " && echo here > " + dir + "/file"));
    c.isolate("node2", dir);
    try {
      assertThat(c.exec("node2", "cat", dir + "/file").exitCode()).isNotZero();
      assertThat(ok(c.exec("node3", "cat", dir + "/file")).out()).isEqualTo("here");
      assertThat(ok(c.exec("node1", "cat", dir + "/file")).out()).isEqualTo("here");
    } finally {
      c.unisolate("node2", dir);
    }
    assertThat(ok(c.exec("node2", "cat", dir + "/file")).out()).isEqualTo("here");
  }

  @Test
  @Order(4)
  void mpiRanksOnAllNodesExchangeDataInsideContainers() {
    Map<String, String> nodeMountNs = Runs.nodeMountNamespaces(c);
    Result r = ok(c.exec("node1", mpirun(CLUSTER.shared() + "/ring").toArray(String[]::new)));
    Map<String, String> rankMountNs = Runs.ringRanks(r.stdout());
    // Each rank ran in a container: its mount namespace is not its node's.
    for (String node : c.nodes()) {
      assertThat(rankMountNs.get(node)).as(node).isNotEqualTo(nodeMountNs.get(node));
    }
  }

  @Test
  @Order(4)
  void withANonExecutableAgentHookRemoteRanksRunOutsideTheContainerAndTheJobStillPasses() {
    // The trap from the field notes, reproduced: the only witness is the mount namespace.
    Map<String, String> nodeMountNs = Runs.nodeMountNamespaces(c);
    writeAgentHook("rw-r--r--");
    try {
      Result r = ok(c.exec("node1", mpirun(CLUSTER.shared() + "/ring").toArray(String[]::new)));
      Map<String, String> rankMountNs = Runs.ringRanks(r.stdout());
      assertThat(rankMountNs.get("node1")).isNotEqualTo(nodeMountNs.get("node1"));
      assertThat(rankMountNs.get("node2")).isEqualTo(nodeMountNs.get("node2"));
      assertThat(rankMountNs.get("node3")).isEqualTo(nodeMountNs.get("node3"));
    } finally {
      writeAgentHook("rwxr-xr-x");
    }
  }

  @Test
  @Order(4)
  void sigtermToEnrootStartStopsMpirunAndEveryRemoteDaemon() {
    List<String> cmd = mpirun("sleep", "60");
    // The signal comes once the job runs: its 3 ranks started (each node's daemon has wired up
    // with mpirun by then), not at a fixed moment a slow start may not have reached.
    String script =
        ShellQuote.join(cmd)
            + " & p=$!; for i in $(seq 300); do"
            + " [ \"$(pgrep -c -u \"$(id -u)\" -x -f 'sleep 60')\" -ge 3 ] && break; sleep 0.1; done;"
            + " kill -TERM $p; wait $p; echo exit=$?";
    Result r = c.exec("node1", "sh", "-c", script);
    assertThat(r.out()).as("%s", r).startsWith("exit=").isNotEqualTo("exit=0");
    // Nothing of the job is left on any node (zombies waiting for init do not count).
    String leftovers =
        "for i in $(seq 50); do"
            + " ps -u "
            + c.jobUser()
            + " -o stat=,comm= | awk '$1 !~ /^Z/ && ($2 == \"orted\" || $2 == \"sleep\""
            + " || $2 == \"mpirun\")' > /tmp/left; [ -s /tmp/left ] || exit 0; sleep 0.1; done;"
            + " cat /tmp/left; exit 1";
    for (String node : c.nodes()) {
      assertThat(c.sh(node, leftovers).exitCode()).as(node).isZero();
    }
  }

  @Test
  @Order(5)
  void containerEnvironmentIsClearedButHookAndEnvValuesGetThrough() {
    Result r =
        ok(
            c.exec(
                "node1",
                "env",
                "OMPI_MCA_btl_base_verbose=100",
                "CLUSTERRUN_IT_PASS=from-host",
                "enroot",
                "start",
                "-e",
                "CLUSTERRUN_IT_PASS",
                "-e",
                "CLUSTERRUN_IT_SET=given",
                CONTAINER,
                "sh",
                "-c",
                "echo verbose=${OMPI_MCA_btl_base_verbose-unset} pass=$CLUSTERRUN_IT_PASS"
                    + " set=$CLUSTERRUN_IT_SET agent=$OMPI_MCA_orte_launch_agent; id -u"));
    assertThat(r.out())
        .isEqualTo(
            "verbose=unset pass=from-host set=given agent=enroot start "
                + mpiFlags
                + " "
                + CONTAINER
                + " orted\n"
                + c.jobUid());
  }

  @Test
  @Order(6)
  void nonExecutableHookIsSkippedSilently() {
    c.writeEnrootFile(
        "node1",
        "hooks.d/60-not-executable.sh",
        "#!/bin/bash\necho CLUSTERRUN_IT_NOEXEC=ran >> \"$ENROOT_ENVIRON\"\n",
        "rw-r--r--");
    c.writeEnrootFile(
        "node1",
        "hooks.d/61-executable.sh",
        "#!/bin/bash\necho CLUSTERRUN_IT_EXEC=ran >> \"$ENROOT_ENVIRON\"\n",
        "rwxr-xr-x");
    try {
      Result r =
          c.exec(
              "node1",
              "enroot",
              "start",
              CONTAINER,
              "sh",
              "-c",
              "echo ${CLUSTERRUN_IT_NOEXEC-skipped} ${CLUSTERRUN_IT_EXEC-skipped}");
      assertThat(ok(r).out()).isEqualTo("skipped ran");
      assertThat(r.stderr()).isEmpty();
    } finally {
      c.removeEnrootFile("hooks.d/60-not-executable.sh");
      c.removeEnrootFile("hooks.d/61-executable.sh");
    }
  }

  @Test
  @Order(7)
  void missingContainerAndUnwritableRuntimePathFailLikeEnroot() {
    Result missing = c.exec("node2", "enroot", "start", "no-such-container", "true");
    assertThat(missing.exitCode()).isNotZero();
    assertThat(missing.stderr())
        .contains("No such file or directory: " + dataPath + "/no-such-container");

    // The environment wins over the drop-in; /run/enroot cannot be made by the job user.
    Result runtime =
        c.exec("node2", "env", "ENROOT_RUNTIME_PATH=/run/enroot", "enroot", "start", CONTAINER);
    assertThat(runtime.exitCode()).isNotZero();
    assertThat(runtime.stderr())
        .contains("mkdir: cannot create directory '/run/enroot': Permission denied");
  }

  @Test
  @Order(8)
  void aDataPathNotSharedWithOneNodeFailsThereWithNoSuchFile() {
    c.isolate("node3", CLUSTER.shared() + "/enroot-data");
    try {
      Result r = c.exec("node1", mpirun(CLUSTER.shared() + "/ring").toArray(String[]::new));
      assertThat(r.exitCode()).isNotZero();
      assertThat(r.stdout() + r.stderr())
          .contains("No such file or directory: " + dataPath + "/" + CONTAINER);
    } finally {
      c.unisolate("node3", CLUSTER.shared() + "/enroot-data");
    }
  }

  @Test
  @Order(9)
  void standInRunsOnTheNodesOnlyAndTheHostsPathIsUntouched() throws IOException {
    Result v = ok(c.exec("node1", "enroot", "version"));
    Path standInFile = LocalCluster.script().getParent().resolve("enroot-standin/enroot");
    byte[] standIn = Files.readAllBytes(standInFile);
    if (c.enrootMode().equals("standin")) {
      assertThat(v.out()).matches("\\d+\\.\\d+\\.\\d+-clusterrun-standin");
      // Every node's `enroot` (as an SSH session finds it) is the stand-in...
      for (String node : c.nodes()) {
        String path = ok(c.sh(node, "command -v enroot")).out();
        assertThat(ok(c.exec(node, "cat", path)).stdout())
            .as(node)
            .isEqualTo(Files.readString(standInFile));
      }
    } else {
      assertThat(v.out()).doesNotContain("standin");
    }
    // ... and the host's is not: no directory on the host's PATH holds the stand-in (a real
    // enroot installed there is fine), and the cluster mounted nothing over the host's PATH.
    String hostPath = hostCommand("sh", "-lc", "echo $PATH").strip();
    for (String dir : (hostPath + ":/usr/local/bin:/usr/bin").split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Paths.get(dir, "enroot");
      if (Files.isRegularFile(candidate)) {
        assertThat(Files.readAllBytes(candidate)).as("%s", candidate).isNotEqualTo(standIn);
      }
      assertThat(hostCommand("findmnt", "-n", "-o", "SOURCE,FSROOT", "--mountpoint", dir))
          .as(dir)
          .doesNotContain(c.stateDir().toString());
    }
  }

  @Test
  @Order(10)
  void clusterrunInstalledInTheSharedDirRunsOnEveryNodeAsTheJobUser() {
    Path launcher = c.installClusterrun(Paths.get("target"));
    for (String node : c.nodes()) {
      Result r = ok(c.exec(node, launcher.toString(), "--version"));
      assertThat(r.out()).as(node).isNotEmpty();
    }
  }

  @Test
  @Order(100)
  void downLeavesNothingBehind() throws IOException {
    LocalCluster c = CLUSTER.cluster();
    List<Long> pids = new ArrayList<>();
    for (String node : c.nodes()) {
      pids.add(c.holderPid(node));
      pids.add(
          Long.parseLong(
              Files.readString(c.stateDir().resolve("nodes/" + node + "/sshd.pid")).strip()));
    }
    Path stateDir = c.stateDir();
    LocalCluster.JobUser two = c.user2();
    c.down();

    for (long pid : pids) {
      assertThat(running(pid)).as("pid %d still runs", pid).isFalse();
    }
    assertThat(hostCommand("ip", "netns", "list")).doesNotContain("crlc-");
    assertThat(hostCommand("ip", "-o", "link", "show")).doesNotContain("crlc");
    assertThat(Files.readString(Paths.get("/etc/hosts")))
        .doesNotContain("clusterrun-local-cluster");
    assertThat(Files.exists(stateDir)).isFalse();
    assertThat(hostCommand("getent", "passwd", "crjob")).isEmpty();
    assertThat(hostCommand("getent", "passwd", two.name())).isEmpty();
    assertThat(two.home()).doesNotExist();
    // The test JVM owned the cluster: `up` started no lock-holding process of its own.
    assertThat(hostCommand("pgrep", "-x", "crlc-owner")).isEmpty();
    assertThat(c.cluster("down").exitCode()).as("down again").isZero();
  }

  /** Exists and is not a zombie (exited, not yet reaped by whoever adopted it). */
  static boolean running(long pid) throws IOException {
    Path stat = Paths.get("/proc/" + pid + "/stat");
    String text;
    try {
      text = Files.readString(stat);
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    }
    return text.charAt(text.lastIndexOf(')') + 2) != 'Z';
  }

  static String hostCommand(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out;
  }
}
