package dev.clusterrun.core.launch.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.LaunchOptions;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.pernode.PerNodeLauncher;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.LocalNodeShell;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What per-node starts on each node, computed without a node. */
class PerNodePlanTest {
  static final Hostfile THREE =
      new Hostfile(
          "hosts",
          List.of(
              new Host("a1", 4, true, 0, 1),
              new Host("b2.cluster", 2, true, 0, 2),
              new Host("10.0.0.3", 1, false, 0, 3)));

  @Test
  void everyNodeGetsTorchrunsAndTheCommonVariablesWithItsOwnRankAndSlots() {
    Map<String, String> v = PerNodePlan.variables(THREE, 1, 29512, "RUN");
    assertThat(v)
        .containsExactly(
            Map.entry("PET_NNODES", "3"),
            Map.entry("PET_NODE_RANK", "1"),
            Map.entry("PET_NPROC_PER_NODE", "2"),
            Map.entry("PET_MASTER_ADDR", "a1"),
            Map.entry("PET_MASTER_PORT", "29512"),
            Map.entry("MASTER_ADDR", "a1"),
            Map.entry("MASTER_PORT", "29512"),
            Map.entry("NODE_RANK", "1"),
            Map.entry("NNODES", "3"),
            Map.entry("CLUSTERRUN_NODE_RANK", "1"),
            Map.entry("CLUSTERRUN_NNODES", "3"),
            Map.entry("CLUSTERRUN_NODELIST", "a1,b2.cluster,10.0.0.3"),
            Map.entry("CLUSTERRUN_RUN_ID", "RUN"));
    assertThat(PerNodePlan.variables(THREE, 2, null, "RUN"))
        .containsEntry("PET_NPROC_PER_NODE", "1")
        .containsEntry("MASTER_PORT", PerNodePlan.PORT_AT_LAUNCH);
  }

  @Test
  void eachNodesStartIsEnrootStartWithTheJobsFlagsAndItsVariables() {
    EnrootArgs.ContainerFlags flags =
        new EnrootArgs.ContainerFlags(
            true,
            false,
            List.of(new Mount(Mount.Kind.BIND, "/ws", "/workspace", List.of())),
            Map.of("A", "b c"));
    List<PerNodePlan.NodeStart> nodes =
        PerNodePlan.nodes(
            THREE,
            "RUN",
            "/ws/runs/RUN",
            new PerNodePlan.Start(
                "pyt",
                flags,
                Boolean.FALSE,
                List.of("HF_TOKEN"),
                "/work dir",
                List.of("torchrun", "train.py"),
                "pyt"),
            29500);
    assertThat(nodes)
        .extracting(PerNodePlan.NodeStart::node)
        .containsExactly("a1", "b2.cluster", "10.0.0.3");
    PerNodePlan.NodeStart b = nodes.get(1);
    assertThat(b.rank()).isEqualTo(1);
    assertThat(b.slots()).isEqualTo(2);
    assertThat(b.stdoutLog()).isEqualTo("/ws/runs/RUN/b2.cluster.stdout.log");
    assertThat(b.stderrLog()).isEqualTo("/ws/runs/RUN/b2.cluster.stderr.log");
    assertThat(String.join(" ", b.argv()))
        .startsWith(
            "env ENROOT_ROOTFS_WRITABLE=y ENROOT_REMAP_ROOT=n ENROOT_MOUNT_HOME=n"
                + " CLUSTERRUN_RUN_ID=RUN enroot start --rw --mount /ws:/workspace --env A=b c"
                + " --env PET_NNODES=3 --env PET_NODE_RANK=1 ")
        .contains(" --env CLUSTERRUN_RUN_ID=RUN --env HF_TOKEN pyt sh -c ")
        .endsWith(" clusterrun-workdir /work dir torchrun train.py");
    // Without a workdir the command is started as given.
    List<PerNodePlan.NodeStart> plain =
        PerNodePlan.nodes(
            THREE,
            "RUN",
            "/r",
            new PerNodePlan.Start("pyt", flags, null, List.of(), null, List.of("hostname"), "pyt"),
            1);
    assertThat(plain.get(0).argv()).endsWith("pyt", "hostname");
    assertThat(plain.get(0).argv()).doesNotContain("ENROOT_MOUNT_HOME=n");
  }

  /** A named container: the first node starts it, the others its snapshot (docs/scale.md). */
  @Test
  void everyNodeButTheFirstStartsTheNamedContainersSnapshot() {
    EnrootArgs.ContainerFlags flags =
        new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of());
    List<PerNodePlan.NodeStart> starts =
        PerNodePlan.nodes(
            THREE,
            "RUN",
            "/r",
            new PerNodePlan.Start(
                "pyt", flags, null, List.of(), null, List.of("hostname"), "/ws/pyt.sqsh"),
            1);
    assertThat(starts.get(0).argv()).endsWith("pyt", "hostname");
    assertThat(starts.get(1).argv()).endsWith("/ws/pyt.sqsh", "hostname").doesNotContain("pyt");
    assertThat(starts.get(2).argv()).endsWith("/ws/pyt.sqsh", "hostname");
  }

  @Test
  void thePortPickedAtLaunchGoesIntoThePlannedStartsAsIfPlannedWithIt() {
    // The job's own env and command hold the placeholder's words too: only the variables change.
    PerNodePlan.Start start =
        new PerNodePlan.Start(
            "pyt",
            new EnrootArgs.ContainerFlags(
                false, false, List.of(), Map.of("MASTER_PORT", PerNodePlan.PORT_AT_LAUNCH)),
            null,
            List.of("HF_TOKEN"),
            "/w",
            List.of("echo", "--env", "MASTER_PORT=" + PerNodePlan.PORT_AT_LAUNCH, "$(x) 'q'"),
            "pyt");
    List<PerNodePlan.NodeStart> planned = PerNodePlan.nodes(THREE, "RUN", "/r", start, null);
    List<PerNodePlan.NodeStart> picked = PerNodePlan.nodes(THREE, "RUN", "/r", start, 29517);
    assertThat(planned.get(1).variables()).containsEntry("MASTER_PORT", PerNodePlan.PORT_AT_LAUNCH);
    assertThat(planned).isNotEqualTo(picked);
    assertThat(planned.stream().map(n -> n.withPort(29517)).toList()).isEqualTo(picked);
    assertThat(picked.get(2).argv())
        .contains("MASTER_PORT=29517", "PET_MASTER_PORT=29517")
        .endsWith("echo", "--env", "MASTER_PORT=" + PerNodePlan.PORT_AT_LAUNCH, "$(x) 'q'");
  }

  @Test
  void theWorkdirWrapperStartsTheCommandThereWithItsWordsIntact() {
    List<String> argv =
        PerNodePlan.inDir(
            "/tmp", List.of("sh", "-c", "printf '%s|' \"$(pwd)\" \"$@\"", "x", "a b"));
    ExecResult r = new LocalNodeShell("here").exec(argv, Duration.ofSeconds(10));
    assertThat(r.stdout()).isEqualTo("/tmp|a b|");
  }

  @Test
  void theHeadsValueOfAnEnvFromHostVariableGoesIntoTheNodesEnvNotIntoThePlan() {
    PerNodePlan.NodeStart s =
        PerNodePlan.nodes(
                THREE,
                "RUN",
                "/r",
                new PerNodePlan.Start(
                    "pyt",
                    new EnrootArgs.ContainerFlags(false, false, List.of(), Map.of()),
                    null,
                    List.of("HF_TOKEN", "UNSET_HERE"),
                    null,
                    List.of("hostname"),
                    "pyt"),
                1)
            .get(0);
    assertThat(s.argv()).contains("HF_TOKEN").doesNotContain("HF_TOKEN=s3cret it's");
    String script = PerNodeLauncher.script(s, Map.of("HF_TOKEN", "s3cret it's"));
    assertThat(script)
        .startsWith("exec env 'HF_TOKEN=s3cret it'\\''s' ENROOT_ROOTFS_WRITABLE=n ")
        .doesNotContain("UNSET_HERE=");
  }

  @Test
  void thePortScriptAndItsWordsAreTheGoldenOnes() {
    GoldenText.assertMatches(PerNodePlan.portScript(), getClass(), "golden/free-port.expected.txt");
  }

  @Test
  void thePortScriptPicksAPortNobodyListensOn() throws Exception {
    ExecResult r = new LocalNodeShell("here").run(PerNodePlan.portScript(), Duration.ofSeconds(10));
    assertThat(r.ok()).as("%s", r).isTrue();
    Integer port = PerNodePlan.parsePort(r.stdout());
    assertThat(port).isBetween(PerNodePlan.FIRST_PORT, PerNodePlan.FIRST_PORT + PerNodePlan.PORTS);
    // The port is free: it can be bound.
    try (java.net.ServerSocket s = new java.net.ServerSocket(port)) {
      assertThat(s.getLocalPort()).isEqualTo(port);
      // Taken now: the script never picks it while it is bound.
      for (int i = 0; i < 20; i++) {
        ExecResult again =
            new LocalNodeShell("here").run(PerNodePlan.portScript(), Duration.ofSeconds(10));
        assertThat(PerNodePlan.parsePort(again.stdout())).isNotEqualTo(port);
      }
    }
    assertThat(PerNodePlan.parsePort("no free port")).isNull();
    assertThat(PerNodePlan.parsePort("port 99999\n")).isNull();
  }

  @Test
  void settingsOfMpirunAreRefusedNamingWhereTheyCameFrom() {
    JobSpec file =
        JobSpecBuilder.layer("j.yaml")
            .name("j")
            .image("/i.sqsh")
            .workspace("/ws", null)
            .mpi(new MpiSpec(null, 2, Map.of("btl", "tcp"), null, null, null))
            .command("hostname")
            .launcher(LauncherKind.PER_NODE)
            .build();
    ResolvedJob job = new JobResolver().layer(file, Source.FILE, "j.yaml").resolve(THREE, "/h");
    LaunchOptions o = new LaunchOptions(false, CanaryMode.OFF, LaunchOptions.Daemon.AUTO, true);
    BadInputException e =
        catchThrowableOfType(
            () -> PerNodePlan.refuseMpiSettings(job, o, 3, 64), BadInputException.class);
    assertThat(e.subject()).isEqualTo("j.yaml: mpi.per-node, j.yaml: mpi.mca");
    assertThat(e.problem())
        .isEqualTo(
            "apply to the mpirun launcher only, not to per-node (j.yaml: launcher); per-node"
                + " starts the command once on every node of the hostfile");
    // Without them, only a fan-out too small to start every node at once is refused.
    ResolvedJob plain =
        new JobResolver()
            .layer(
                new JobSpec(
                    "j",
                    file.container(),
                    file.workspace(),
                    MpiSpec.EMPTY,
                    file.command(),
                    SshSpec.EMPTY,
                    "j.yaml",
                    LauncherKind.PER_NODE,
                    null),
                Source.FILE,
                "j.yaml")
            .resolve(THREE, "/h");
    PerNodePlan.refuseMpiSettings(plain, o, 3, 3);
    assertThatThrownBy(() -> PerNodePlan.refuseMpiSettings(plain, o, 3, 2))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("2 is less than the 3 nodes that per-node starts at once");
  }
}
