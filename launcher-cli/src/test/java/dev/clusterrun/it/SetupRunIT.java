package dev.clusterrun.it;

import static dev.clusterrun.it.ClusterrunExtension.RUN_TIMEOUT;
import static dev.clusterrun.it.LocalCluster.ok;
import static dev.clusterrun.it.Runs.RING;
import static dev.clusterrun.it.Runs.ringRanks;
import static dev.clusterrun.it.Runs.runLine;
import static dev.clusterrun.it.Runs.summary;
import static dev.clusterrun.it.Runs.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.it.LocalCluster.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code clusterrun setup} and {@code clusterrun run} end to end, as a user runs them: the built
 * launcher, installed in the shared directory, run as the job user on node1 (the head) of a bare
 * 3-node local cluster with the enroot stand-in (or a real enroot with {@code
 * CLUSTERRUN_IT_REAL_ENROOT=1 CLUSTERRUN_IT_IMAGE=...}). The job is examples/hello-mpi.yaml: the
 * real MPI ring program, compiled into the workspace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SetupRunIT {
  @RegisterExtension
  static final ClusterrunExtension HEAD = new ClusterrunExtension(3, "hosts", 1, "ws");

  static String dataPath;

  /** Extra flags pointing the job at CLUSTERRUN_IT_IMAGE when given (else the yaml's image). */
  static List<String> imageFlags = List.of();

  @BeforeAll
  static void jobAndProgramInTheSharedDir() {
    LocalCluster c = HEAD.cluster();
    dataPath = HEAD.shared() + "/enroot-data";
    HEAD.copyExamples("hello-mpi.yaml", "seed.yaml");
    Runs.compileRing(c, HEAD.ws());
    Runs.keepMpiOnClusterNetwork(c);
    imageFlags = Runs.requiredImageFlags(c, HEAD.shared() + "/it-image.sqsh");
  }

  // ----------------------------------------------------------------------------------------------

  @Test
  @Order(1)
  void setupOnABareClusterThenHelloMpiRunsEveryRankInsideTheContainer() throws IOException {
    // Bare: nothing of clusterrun on the nodes, and enroot cannot even start over SSH.
    for (String node : HEAD.cluster().nodes()) {
      // enroot's own packaged hooks are there, as on a fresh install; clusterrun's are not.
      assertThat(HEAD.cluster().exec(node, "ls", "/etc/enroot/hooks.d").out())
          .as(node)
          .doesNotContain("clusterrun");
      assertThat(HEAD.cluster().exec(node, "ls", "/etc/enroot/enroot.conf.d").out())
          .as(node)
          .doesNotContain("clusterrun");
    }
    Result setup = setup();
    ok(setup);
    for (String node : HEAD.cluster().nodes()) {
      assertThat(setup.stdout()).contains(node + ": changed");
    }

    Map<String, String> nodeNs = Runs.nodeMountNamespaces(HEAD.cluster());
    List<String> args =
        new ArrayList<>(List.of("run", "examples/hello-mpi.yaml", "--nodes", HEAD.hosts()));
    args.addAll(imageFlags);
    // The workspace through the environment, as a user would set it once.
    Result r = inShared(List.of("CLUSTERRUN_WORKSPACE=" + HEAD.ws()), args);
    ok(r);

    // Every rank of every node: its hostname, inside the container, the data went round.
    Map<String, String> rankNs = ringRanks(r.stdout());
    for (String node : HEAD.cluster().nodes()) {
      assertThat(rankNs.get(node))
          .as("rank on %s ran inside the container", node)
          .isNotEqualTo(nodeNs.get(node));
    }
    // No canary before the job: the job's own launch proves each remote daemon, before any rank
    // prints (mpirun's own node runs its ranks inside the container by construction).
    assertThat(r.stderr()).doesNotContain("clusterrun: canary:").doesNotContain("clusterrun-proof");
    String proof = "clusterrun: proof: the daemons on node2, node3 run inside this run's container";
    assertThat(r.stderr()).contains(proof);
    assertThat(r.stderr().indexOf(proof))
        .isGreaterThan(r.stderr().indexOf("clusterrun: running: "));

    JsonNode s = summary(r);
    assertThat(s.path("job").asText()).isEqualTo("hello-mpi");
    assertThat(s.path("outcome").asText()).isEqualTo("succeeded");
    assertThat(s.path("exitCode").asInt(-1)).isZero();
    assertThat(s.path("ranks").asInt()).isEqualTo(3);
    assertThat(texts(s.path("nodes"))).containsExactly("node1", "node2", "node3");
    assertThat(s.path("daemon").asText()).isEqualTo("orted");
    assertThat(s.path("canary").isNull()).isTrue();
    List<String> proved = new ArrayList<>();
    for (JsonNode p : s.path("proof")) {
      assertThat(p.path("proven").asBoolean()).as("%s", p).isTrue();
      assertThat(p.path("mountNamespace").asText())
          .as("%s", p)
          .isNotEqualTo(nodeNs.get(p.path("node").asText()));
      proved.add(p.path("hostname").asText());
    }
    assertThat(proved).containsExactly("node2", "node3");
    // Every phase has its duration, so the next regression is visible.
    for (String phase : List.of("checks", "prepare", "job", "cleanup", "total")) {
      assertThat(s.path("durationsSeconds").path(phase).isNumber()).as(phase).isTrue();
    }
    assertThat(s.path("versions").path("clusterrun").asText()).isNotBlank();
    assertThat(s.path("versions").path("openmpi").asText()).matches("4\\..*");
    assertThat(s.path("leftovers").toString()).doesNotContain("\"pid\"");
    Path runDir = Paths.get(s.path("runDir").asText());
    assertThat(runDir.getParent()).isEqualTo(Paths.get(HEAD.ws(), "runs"));
    assertThat(Files.readString(runDir.resolve("stdout.log"))).contains("host=node3");
    assertThat(runDir.resolve("plan.txt")).exists();
    assertThat(runDir.resolve("job.yaml")).exists();
    // An unnamed job with an image starts the image itself on every node: no container was made
    // (none to remove), and no mount or overlay of it stays on any node.
    assertThat(s.path("container").asText()).endsWith(".sqsh");
    assertThat(s.path("prepare").toString()).doesNotContain("created container");
    assertThat(ok(HEAD.cluster().exec("node1", "enroot", "list")).out())
        .doesNotContain("clusterrun-");
    for (String node : HEAD.cluster().nodes()) {
      // (the fuse processes end with their container, a moment after it)
      String u = ShellQuote.quote(HEAD.cluster().jobUser());
      assertThat(
              HEAD.cluster()
                  .exec(
                      node,
                      "sh",
                      "-c",
                      "for i in 1 2 3 4 5 6 7 8 9 10; do pgrep -u "
                          + u
                          + " -x squashfuse >/dev/null || exit 0; sleep 0.5; done;"
                          + " pgrep -a -u "
                          + u
                          + " -x squashfuse")
                  .out())
          .as("squashfuse left on %s", node)
          .isBlank();
      assertThat(
              ok(HEAD.cluster()
                      .exec(
                          node,
                          "sh",
                          "-c",
                          "ls -A \"${XDG_RUNTIME_DIR:-/tmp/enroot-runtime-$(id -u)}/enroot\""
                              + " 2>/dev/null; grep -c ' fuse' /proc/self/mountinfo || true"))
                  .out())
          .as("an overlay or a fuse mount left on %s", node)
          .doesNotContain("overlay")
          .satisfies(out -> assertThat(out.strip().lines().reduce((a, b) -> b)).hasValue("0"));
    }
  }

  @Test
  @Order(2)
  void aSecondSetupChangesNothing() {
    String files =
        "/etc/enroot/enroot.conf.d/50-clusterrun.conf /etc/enroot/hooks.d/50-clusterrun-launch-agent.sh";
    Map<String, String> before = new HashMap<>();
    for (String node : HEAD.cluster().nodes()) {
      before.put(
          node,
          ok(HEAD.cluster().exec(node, true, "sh", "-c", "stat -c '%n %i %y %a %U' " + files))
              .out());
    }
    Result again = ok(setup());
    for (String node : HEAD.cluster().nodes()) {
      assertThat(again.stdout()).contains(node + ": unchanged");
      assertThat(
              ok(HEAD.cluster().exec(node, true, "sh", "-c", "stat -c '%n %i %y %a %U' " + files))
                  .out())
          .as(node)
          .isEqualTo(before.get(node));
    }
    assertThat(again.stdout()).doesNotContain("changed:");
  }

  @Test
  @Order(3)
  void theJobsExitCodeIsClusterrunsExitCode() {
    Result r = run(List.of(), List.of("--skip-checks", "--", "sh", "-c", "exit 7"));
    assertThat(r.exitCode()).as("%s", r).isEqualTo(7);
    assertThat(summary(r).path("outcome").asText()).isEqualTo("failed");
  }

  @Test
  @Order(4)
  void sigintInTheMiddleOfALongJobExits130AndLeavesNothingOnAnyNode() throws Exception {
    Result r = Runs.interruptedOnceRunning(HEAD.cluster(), HEAD.shared(), longJob("987"));
    assertThat(summary(r).path("outcome").asText()).isEqualTo("interrupted");
  }

  /** `clusterrun run … -- sleep SECONDS` on the three nodes (mpirun launcher), checks skipped. */
  static List<String> longJob(String seconds) {
    List<String> cmd = HEAD.command(HEAD.onNodes("run", "examples/hello-mpi.yaml"));
    cmd.add("--skip-checks");
    cmd.addAll(imageFlags);
    cmd.addAll(List.of("--", "sleep", seconds));
    return cmd;
  }

  @Test
  @Order(4)
  void sigtermAndSighupStopALongJobOnEveryNodeAsCtrlCDoesAndExit143And129() throws Exception {
    for (String[] s : new String[][] {{"TERM", "143"}, {"HUP", "129"}}) {
      JobSignals.Running j =
          JobSignals.start(HEAD.cluster(), HEAD.shared(), longJob("120"), "sleep 120", 3);
      JobSignals.send(HEAD.cluster(), j, s[0]);
      Result r = j.result().get(90, TimeUnit.SECONDS);
      System.err.println("--- clusterrun run ... -- sleep 120, SIG" + s[0] + "\n" + r);
      assertThat(r.exitCode()).as("SIG%s: %s", s[0], r).isEqualTo(Integer.parseInt(s[1]));
      assertThat(runLine(r).group(1)).isEqualTo(j.runId());
      assertThat(runLine(r).group(2)).isEqualTo("interrupted");
      assertThat(summary(r).path("exitCode").asInt()).isEqualTo(Integer.parseInt(s[1]));
      assertThat(JobSignals.leftAfter(HEAD.cluster(), j.runId(), Duration.ZERO))
          .as("processes of run %s after SIG%s", j.runId(), s[0])
          .isEmpty();
    }
  }

  @Test
  @Order(4)
  void underNohupSighupLeavesTheRunGoingAndSigtermStillStopsIt() throws Exception {
    List<String> argv = new ArrayList<>(List.of("nohup"));
    argv.addAll(longJob("120"));
    JobSignals.Running j = JobSignals.start(HEAD.cluster(), HEAD.shared(), argv, "sleep 120", 3);
    JobSignals.send(HEAD.cluster(), j, "HUP");
    Thread.sleep(3000);
    assertThat(JobSignals.stillRunning(HEAD.cluster(), j, "sleep 120", 3))
        .as("clusterrun under nohup and its job on 3 nodes, 3 s after SIGHUP")
        .isTrue();
    JobSignals.send(HEAD.cluster(), j, "TERM");
    Result r = j.result().get(90, TimeUnit.SECONDS);
    assertThat(r.exitCode()).as("SIGTERM after the ignored SIGHUP: %s", r).isEqualTo(143);
    assertThat(JobSignals.leftAfter(HEAD.cluster(), j.runId(), Duration.ZERO)).isEmpty();
  }

  @Test
  @Order(4)
  void clusterrunKilledBySigkillLeavesNoProcessOfItsRunOnAnyNode10sLater() throws Exception {
    Runs.killedLeavesNothingBehind(HEAD, longJob("120"));
  }

  @Test
  @Order(5)
  void aHookMadeNonExecutableOnOneNodeIsCaughtBeforeRunAndNoHookStillWorks() throws IOException {
    String hook = "/etc/enroot/hooks.d/50-clusterrun-launch-agent.sh";
    Path runs = Paths.get(HEAD.ws(), "runs");
    long before = countEntries(runs);
    ok(HEAD.cluster().exec("node2", true, "chmod", "0644", hook));
    try {
      Result r = run(List.of(), List.of());
      assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
      assertThat(r.stderr()).contains("node2").contains("hook").contains("nothing was started");
      assertThat(r.stdout()).doesNotContain("rank=");
      assertThat(countEntries(runs)).as("no run directory").isEqualTo(before);
      assertThat(Runs.processes(HEAD.cluster(), "node2", "", "/workspace/ring")).isEmpty();

      // Where the hook cannot be fixed, --no-hook hands the agent over with enroot start -e.
      Map<String, String> nodeNs = Runs.nodeMountNamespaces(HEAD.cluster());
      Result noHook = run(List.of(), List.of("--no-hook"));
      ok(noHook);
      Map<String, String> rankNs = ringRanks(noHook.stdout());
      for (String node : HEAD.cluster().nodes()) {
        assertThat(rankNs.get(node)).as(node).isNotEqualTo(nodeNs.get(node));
      }
    } finally {
      ok(HEAD.cluster().exec("node2", true, "chmod", "0755", hook));
    }
  }

  @Test
  @Order(6)
  void twoJobsAtOnceWithDifferentMountsAndNodesEachSeeTheirOwn() throws Exception {
    // Job A on all three nodes, job B on node2 and node3 only (the head runs mpirun for both),
    // each with its own directory mounted at /data, in the same workspace.
    String hosts23 = HEAD.shared() + "/hosts-23";
    HEAD.cluster().writeAsJobUser(hosts23, "node2 slots=1\nnode3 slots=1\n");
    Map<String, String> hostfiles = Map.of("A", HEAD.hosts(), "B", hosts23);
    Map<String, List<String>> expected =
        Map.of("A", List.of("node1", "node2", "node3"), "B", List.of("node2", "node3"));
    for (String m : List.of("A", "B")) {
      ok(HEAD.cluster().exec("node1", "mkdir", "-p", HEAD.shared() + "/mount-" + m));
      HEAD.cluster()
          .writeAsJobUser(HEAD.shared() + "/mount-" + m + "/marker", "marker-" + m + "\n");
    }
    String probe =
        "s=$(date +%s.%N); m=$(cat /data/marker); sleep 3;"
            + " echo \"probe $(hostname) $m $(cat /data/marker) $s $(date +%s.%N)\"";
    Map<String, CompletableFuture<Result>> jobs = new HashMap<>();
    for (String m : List.of("A", "B")) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "run",
                  "examples/hello-mpi.yaml",
                  "--nodes",
                  hostfiles.get(m),
                  "--workspace",
                  HEAD.ws()));
      args.addAll(imageFlags);
      args.addAll(
          List.of(
              "--container-mounts",
              HEAD.shared() + "/mount-" + m + ":/data:ro",
              "--",
              "sh",
              "-c",
              probe));
      jobs.put(m, CompletableFuture.supplyAsync(() -> inShared(List.of(), args)));
    }
    Map<String, double[]> spans = new HashMap<>();
    for (String m : List.of("A", "B")) {
      Result r = jobs.get(m).get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      ok(r);
      Pattern p = Pattern.compile("probe (\\S+) (\\S+) (\\S+) (\\S+) (\\S+)");
      TreeSet<String> seen = new TreeSet<>();
      double start = Double.MAX_VALUE;
      double end = 0;
      for (String line : r.stdout().split("\n")) {
        Matcher mt = p.matcher(line);
        if (mt.matches()) {
          seen.add(mt.group(1));
          assertThat(mt.group(2)).as(line).isEqualTo("marker-" + m);
          assertThat(mt.group(3)).as(line).isEqualTo("marker-" + m);
          start = Math.min(start, Double.parseDouble(mt.group(4)));
          end = Math.max(end, Double.parseDouble(mt.group(5)));
        }
      }
      assertThat(seen).as("job %s: %s", m, r).containsExactlyElementsOf(expected.get(m));
      spans.put(m, new double[] {start, end});
    }
    // The two jobs' ranks really ran at the same time.
    assertThat(spans.get("A")[0]).isLessThan(spans.get("B")[1]);
    assertThat(spans.get("B")[0]).isLessThan(spans.get("A")[1]);
  }

  /** The one image the workspace's cache holds (imported by digest by the first run). */
  static Path importedImage(String workspace) throws IOException {
    try (java.util.stream.Stream<Path> s = Files.list(Paths.get(workspace, "images"))) {
      List<Path> images =
          s.filter(p -> p.getFileName().toString().matches("sha256-[0-9a-f]{64}\\.sqsh")).toList();
      assertThat(images).as("images in %s", workspace).hasSize(1);
      return images.get(0);
    }
  }

  @Test
  @Order(7)
  void theSeedsManualRecipeAndClusterrunRunGiveTheSameResult() throws IOException {
    LocalCluster c = HEAD.cluster();
    String seedWs = HEAD.shared() + "/seed-ws";
    ok(c.exec("node1", "mkdir", "-p", seedWs));
    ok(c.exec("node1", "cp", HEAD.ws() + "/ring", seedWs + "/ring"));
    HEAD.cluster().writeAsJobUser(seedWs + "/hosts.txt", c.hostfile(1));
    // The seed: a named container made by hand in the shared data path (setup's drop-in), ...
    String image = imageFlags.isEmpty() ? importedImage(HEAD.ws()).toString() : imageFlags.get(1);
    assertThat(Paths.get(image)).exists();
    ok(c.exec("node1", "enroot", "create", "-n", "seed", image));
    // ... a hook on every node with the flags typed again by hand, ...
    String flags = "--rw --mount " + seedWs + ":/app";
    c.writeEnrootFile(
        "hooks.d/ompi.sh",
        "#!/bin/bash\necho \"OMPI_MCA_orte_launch_agent=enroot start "
            + flags
            + " seed orted\" >> \"$ENROOT_ENVIRON\"\n",
        "rwxr-xr-x");
    Map<String, String> nodeNs = Runs.nodeMountNamespaces(HEAD.cluster());
    Result manual;
    try {
      manual =
          ok(
              c.exec(
                  "node1",
                  false,
                  null,
                  RUN_TIMEOUT,
                  List.of(
                      "enroot",
                      "start",
                      "--rw",
                      "--mount",
                      seedWs + ":/app",
                      "seed",
                      "mpirun",
                      "-np",
                      "3",
                      "--hostfile",
                      "/app/hosts.txt",
                      "--mca",
                      "btl",
                      "tcp,self",
                      "--wdir",
                      "/app",
                      "./ring")));
    } finally {
      c.removeEnrootFile("hooks.d/ompi.sh");
    }
    // ... and clusterrun with the seed's job file, the same container and workspace.
    Result cr =
        ok(
            inShared(
                List.of(),
                List.of(
                    "run",
                    "examples/seed.yaml",
                    "--nodes",
                    HEAD.hosts(),
                    "--container-name",
                    "seed",
                    "--container-image",
                    image,
                    "--workspace",
                    seedWs,
                    "--container-workdir",
                    "/app",
                    "--",
                    "./ring")));
    assertThat(normalisedRing(cr.stdout(), nodeNs))
        .isEqualTo(normalisedRing(manual.stdout(), nodeNs));
    assertThat(normalisedRing(cr.stdout(), nodeNs)).hasSize(3).allMatch(l -> l.contains("inside"));
  }

  // ----------------------------------------------------------------------------------------------

  static Result setup() {
    return HEAD.trySetup(dataPath, RUN_TIMEOUT);
  }

  /** {@code clusterrun run examples/hello-mpi.yaml --nodes H --workspace WS [image] EXTRA}. */
  static Result run(List<String> env, List<String> extra) {
    List<String> args = HEAD.onNodes("run", "examples/hello-mpi.yaml");
    args.addAll(imageFlags);
    args.addAll(extra);
    return inShared(env, args);
  }

  @Test
  @Order(8)
  void theHeadsContainerBegunDuringTheChecksRunsTheJobAndNothingAtAllWhenTheyFail()
      throws Exception {
    String box = "early-box";
    String hook = "/etc/enroot/hooks.d/50-clusterrun-launch-agent.sh";
    List<String> base = HEAD.onNodes("run");
    base.addAll(List.of("--container-name=" + box, "--np", "3"));
    // Made by a first run from the image (which also remembers the container's Open MPI)...
    List<String> first = new ArrayList<>(base);
    first.addAll(
        imageFlags.isEmpty()
            ? List.of("--container-image", HEAD.cluster().tinyImage())
            : imageFlags);
    first.addAll(List.of("--", "/workspace/ring"));
    ringRanks(ok(inShared(List.of(), first)).stdout());
    Path marker = Paths.get(HEAD.ws(), "early-marker");
    try {
      // ...then used as it is: its start on the head begins while the checks run.
      List<String> again = new ArrayList<>(base);
      again.addAll(List.of("--", "/workspace/ring"));
      Result r = ok(inShared(List.of(), again));
      ringRanks(r.stdout());
      assertThat(texts(summary(r).path("prepare")))
          .anyMatch(a -> a.contains("began during the checks"));

      // A check that fails: the held start ends and the job's command never runs anywhere.
      ok(HEAD.cluster().exec("node2", true, "chmod", "0644", hook));
      List<String> failing = new ArrayList<>(base);
      failing.addAll(List.of("--", "sh", "-c", "touch /workspace/early-marker"));
      Result f = inShared(List.of(), failing);
      assertThat(f.exitCode()).as("%s", f).isEqualTo(3);
      assertThat(f.stderr()).contains("node2").contains("hook").contains("nothing was started");
      assertThat(marker).doesNotExist();
      assertThat(headProcesses("[r]ead -r cr_go")).as("a held start left on the head").isEmpty();
      ok(HEAD.cluster().exec("node2", true, "chmod", "0755", hook));

      // clusterrun killed (SIGKILL) while a silent node holds the checks up and the container
      // waits: the end of its input ends the wait, the job never runs, the container goes down.
      HEAD.cluster().cut("node3");
      CompletableFuture<Result> killed =
          CompletableFuture.supplyAsync(() -> inShared(List.of(), failing));
      List<String> gate = List.of();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (gate.isEmpty() && !killed.isDone() && System.nanoTime() < deadline) {
        Thread.sleep(100);
        gate = headProcesses("[r]ead -r cr_go");
      }
      assertThat(gate).as("the held start while node3 holds the checks up").isNotEmpty();
      List<String> jvm = headProcesses("[c]lusterrun.jar run");
      assertThat(jvm).hasSize(1);
      ok(HEAD.cluster().exec("node1", true, "kill", "-KILL", jvm.get(0).replace("/proc/", "")));
      killed.get(60, TimeUnit.SECONDS);
      List<String> left = gate;
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!left.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(200);
        left = headProcesses("[r]ead -r cr_go");
      }
      assertThat(left).as("the held start after clusterrun was killed").isEmpty();
      assertThat(headProcesses("[s]tart .*" + box)).as("enroot start of " + box).isEmpty();
      assertThat(marker).doesNotExist();
    } finally {
      HEAD.cluster().uncut("node3");
      JobSignals.endMasters(HEAD.cluster());
      ok(HEAD.cluster().exec("node2", true, "chmod", "0755", hook));
      Files.deleteIfExists(marker);
      HEAD.cluster().exec("node1", "enroot", "remove", "--force", box);
    }
  }

  @Test
  @Order(9)
  void aContainerMadeByHandIsAskedItsOpenMpiOnceThoughItsFirstRunMakesItsMountPoints()
      throws IOException {
    String box = "by-hand";
    String image = imageFlags.isEmpty() ? importedImage(HEAD.ws()).toString() : imageFlags.get(1);
    LocalCluster c = HEAD.cluster();
    ok(c.exec("node1", "enroot", "create", "-n", box, image));
    try {
      List<String> args = HEAD.onNodes("run", "--container-name=" + box);
      args.addAll(List.of("--", "hostname"));
      // The first run asks, and enroot makes the workspace's mount point in the container's root
      // directory (the change time by which a container made by hand is known) ...
      assertThat(ok(inShared(List.of(), args)).stderr())
          .containsPattern("container has Open MPI [0-9.]+: remote daemons start as");
      // ... which does not make the next runs ask again.
      for (int i = 0; i < 2; i++) {
        assertThat(ok(inShared(List.of(), args)).stderr())
            .containsPattern("container has Open MPI [0-9.]+ \\(asked before, same contents\\)");
      }
    } finally {
      c.exec("node1", "enroot", "remove", "--force", box);
    }
  }

  /** /proc/PID of each process on node1 whose command line matches {@code regex} (grep -E). */
  static List<String> headProcesses(String regex) {
    Result r =
        ok(
            HEAD.cluster()
                .exec(
                    "node1",
                    true,
                    "sh",
                    "-c",
                    "for d in /proc/[0-9]*; do tr '\\000' ' ' < $d/cmdline 2>/dev/null"
                        + " | grep -qE \"$1\" && echo $d; done; exit 0",
                    "procs",
                    regex));
    List<String> out = new ArrayList<>();
    for (String l : r.stdout().split("\n")) {
      if (!l.isBlank()) {
        out.add(l.strip());
      }
    }
    return out;
  }

  /** Runs the launcher as the job user on node1 from the shared dir, with {@code env} added. */
  static Result inShared(List<String> env, List<String> args) {
    return HEAD.run(RUN_TIMEOUT, env, args);
  }

  /** The ring lines, sorted, with the namespace replaced by inside/outside its node's. */
  static List<String> normalisedRing(String stdout, Map<String, String> nodeNs) {
    List<String> out = new ArrayList<>();
    for (String l : stdout.split("\n")) {
      Matcher m = RING.matcher(l);
      if (m.matches()) {
        String where = m.group(3).equals(nodeNs.get(m.group(2))) ? "outside" : "inside";
        out.add(l.replace("mntns=" + m.group(3), where));
      }
    }
    out.sort(null);
    return out;
  }

  static long countEntries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (var s = Files.list(dir)) {
      return s.count();
    }
  }
}
