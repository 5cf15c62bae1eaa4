package dev.clusterrun.core.launch.pernode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.launch.cleanup.RemoteReaper;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.plan.PerNodePlan;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.launch.run.Ending;
import dev.clusterrun.core.launch.run.RunContext;
import dev.clusterrun.core.launch.run.RunEnd;
import dev.clusterrun.core.remote.LocalNodeShell;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import dev.clusterrun.core.spec.LauncherKind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-node launcher over real local shells standing for two nodes: each node's command is a
 * real process (not in a container), marked with the run id as the real start is.
 */
class PerNodeLauncherTest {
  @TempDir Path dir;

  final List<String> said = Collections.synchronizedList(new ArrayList<>());
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** A plan whose node starts run {@code scripts} (by node) with the run id in the environment. */
  Plan plan(String runId, Map<String, String> scripts, Integer port) {
    Plan p =
        Planner.plan(
            job(),
            PlannerTest.TWO_BY_EIGHT,
            new PlanOptions(runId, dev.clusterrun.core.enroot.LaunchAgent.Daemon.ORTED, true),
            port);
    List<PerNodePlan.NodeStart> starts = new ArrayList<>();
    for (PerNodePlan.NodeStart s : p.perNode()) {
      List<String> argv =
          List.of(
              "env",
              "CLUSTERRUN_RUN_ID=" + runId,
              "NODE_RANK=" + s.rank(),
              "MASTER_PORT=" + s.variables().get("MASTER_PORT"),
              "sh",
              "-c",
              scripts.get(s.node()));
      starts.add(
          new PerNodePlan.NodeStart(
              s.node(), s.rank(), s.slots(), s.variables(), argv, s.stdoutLog(), s.stderrLog()));
    }
    return p.toBuilder().perNode(starts).build();
  }

  ResolvedJob job() {
    JobSpec f =
        JobSpecBuilder.hostnameJob(dir.toString())
            .image("/i.sqsh")
            .launcher(LauncherKind.PER_NODE)
            .build();
    return PlannerTest.resolved(f);
  }

  Session session() {
    Map<String, NodeShell> shells = new LinkedHashMap<>();
    shells.put("gpu01", new LocalNodeShell("gpu01"));
    shells.put("gpu02", new LocalNodeShell("gpu02"));
    Progress p =
        new Progress() {
          @Override
          public void note(String line) {
            said.add(line);
          }
        };
    return new Session(PlannerTest.TWO_BY_EIGHT, "gpu01", shells, Map.of(), new FanOut(4), p);
  }

  /** Runs the scripts, one a node, with the launcher's label and keep-going choices. */
  Ending launch(
      Session s, String runId, Map<String, String> scripts, Boolean label, boolean keepGoing)
      throws Exception {
    return new PerNodeLauncher(port -> plan(runId, scripts, port), label, keepGoing)
        .launch(context(s, plan(runId, scripts, null)));
  }

  RunContext context(Session s, Plan first) throws Exception {
    Files.createDirectories(Path.of(first.runDir()));
    return new RunContext(
        s,
        new Console(s.progress(), out, err, null, null),
        HeadCommands.LOCAL,
        first,
        null,
        "test");
  }

  /** The script each node runs: {@code gpu01}'s and {@code gpu02}'s. */
  private static Map<String, String> twoNodes(String gpu01, String gpu02) {
    return Map.of("gpu01", gpu01, "gpu02", gpu02);
  }

  /** A run id of this test process's own, ending in {@code what}. */
  private static String runId(String what) {
    return "pn-test-" + ProcessHandle.current().pid() + "-" + what;
  }

  @Test
  void theFirstFailingNodesCodeIsTheRunsAndTheOtherNodeIsStopped() throws Exception {
    String runId = runId("fail");
    Map<String, String> scripts =
        twoNodes("echo start; exec sleep 60", "sleep 1; echo bad >&2; exit 3");
    try (Session s = session()) {
      long t = System.nanoTime();
      Ending end = launch(s, runId, scripts, null, false);
      assertThat((System.nanoTime() - t) / 1e9).as("seconds").isLessThan(30);
      assertThat(end).isEqualTo(new Ending(RunEnd.FAILED, 3));
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("gpu01: start\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("gpu02: bad\n");
    assertThat(said).contains("gpu02: exited 3; stopping the others");
    Path runDir = dir.resolve("runs/" + runId);
    assertThat(Files.readString(runDir.resolve("gpu01.stdout.log"))).isEqualTo("start\n");
    assertThat(Files.readString(runDir.resolve("gpu02.stderr.log"))).isEqualTo("bad\n");
    assertThat(runDir.resolve("plan.txt")).exists();
  }

  @Test
  void everyNodeGetsThePortPickedOnTheFirstAndKeepGoingLetsTheOthersFinish() throws Exception {
    String runId = runId("keep");
    Map<String, String> scripts =
        twoNodes(
            "sleep 1; echo rank=$NODE_RANK port=$MASTER_PORT",
            "echo rank=$NODE_RANK port=$MASTER_PORT; exit 4");
    Ending end;
    try (Session s = session()) {
      end = launch(s, runId, scripts, false, true);
    }
    assertThat(end).isEqualTo(new Ending(RunEnd.FAILED, 4));
    String o = out.toString(StandardCharsets.UTF_8);
    // Not labelled (--no-label); the port is one picked, the same on both nodes.
    List<String> lines = o.lines().sorted().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).matches("rank=0 port=29[5-9][0-9][0-9]");
    assertThat(lines.get(1)).isEqualTo(lines.get(0).replace("rank=0", "rank=1"));
    assertThat(said).contains("gpu02: exited 4; the other nodes go on (--keep-going)");
  }

  @Test
  void interruptStopsEveryNode() throws Exception {
    String runId = runId("int");
    Map<String, String> scripts = twoNodes("exec sleep 60", "exec sleep 61");
    Ending end;
    try (Session s = session()) {
      PerNodeLauncher l = new PerNodeLauncher(port -> plan(runId, scripts, port), null, false);
      Thread stopper =
          new Thread(
              () -> {
                try {
                  Thread.sleep(1500);
                } catch (InterruptedException e) {
                  return;
                }
                l.interrupt();
              });
      stopper.start();
      long t = System.nanoTime();
      end = l.launch(context(s, plan(runId, scripts, null)));
      assertThat((System.nanoTime() - t) / 1e9).as("seconds").isLessThan(30);
      stopper.join();
    }
    assertThat(end.end()).isEqualTo(RunEnd.INTERRUPTED);
    assertThat(
            RemoteReaper.reap(new LocalNodeShell("x"), runId, java.time.Duration.ofSeconds(10))
                .leftovers())
        .isEmpty();
  }
}
