package dev.clusterrun.cli;

import static dev.clusterrun.cli.CliTest.on2x8;
import static dev.clusterrun.cli.CliTest.path;
import static dev.clusterrun.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clusterrun.cli.CliTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --launcher=per-node} as {@code plan} shows it, and the flags it refuses. */
class PerNodeCliTest {
  @TempDir Path dir;

  @Test
  void planShowsEveryNodesVariablesAndItsEnrootStart() throws Exception {
    Run r =
        planTorch(
            "--launcher=per-node",
            "--container-name=torch",
            "--container-writable",
            "--container-mounts=/data:/data:ro",
            "--container-workdir=/data",
            "--",
            "torchrun",
            "train.py");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("# 2 nodes, one process on each (per-node); container torch")
        .contains("# rendezvous: gpu01:<picked-at-launch>")
        .contains("# gpu02: rank 1, 8 slots")
        .contains(
            "PET_NNODES=2 PET_NODE_RANK=1 PET_NPROC_PER_NODE=8 PET_MASTER_ADDR=gpu01"
                + " 'PET_MASTER_PORT=<picked-at-launch>' MASTER_ADDR=gpu01")
        .contains("env ENROOT_ROOTFS_WRITABLE=y ENROOT_REMAP_ROOT=n CLUSTERRUN_RUN_ID=")
        .contains("--env CLUSTERRUN_NODELIST=gpu01,gpu02 --env CLUSTERRUN_RUN_ID=")
        .contains(
            " torch sh -c 'cd \"$1\" && shift && exec \"$@\"' clusterrun-workdir /data torchrun"
                + " train.py\n")
        .doesNotContain("mpirun -np");

    Run j = planTorch("--launcher", "per-node", "--json", "hostname");
    JsonNode n = new ObjectMapper().readTree(j.out());
    assertThat(n.path("launcher").asText()).isEqualTo("per-node");
    JsonNode second = n.path("perNode").path(1);
    assertThat(second.path("node").asText()).isEqualTo("gpu02");
    assertThat(second.path("rank").asInt()).isEqualTo(1);
    assertThat(second.path("variables").path("NODE_RANK").asText()).isEqualTo("1");
    assertThat(second.path("variables").path("NNODES").asText()).isEqualTo("2");
    assertThat(second.path("stdoutLog").asText())
        .startsWith("/shared/ws/runs/")
        .endsWith("/gpu02.stdout.log");
    assertThat(second.path("argv").get(0).asText()).isEqualTo("env");
  }

  @Test
  void theJobFileChoosesTheLauncherAndPlanSaysWhere() throws Exception {
    Path job = dir.resolve("torch.yaml");
    Files.writeString(
        job,
        "launcher: per-node\ncontainer:\n  image: /images/torch.sqsh\n"
            + "  env: {GREETING: \"hello;world\"}\n"
            + "workspace:\n  path: /shared/ws\ncommand: [hostname]\n");
    Run r = run("plan", job.toString(), "--nodes", path("hostfiles/2x8.txt"));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("\nlauncher +per-node +file \\(" + job + "\\)\n");
    // The value is quoted once for the node's shell and reaches enroot as one word.
    assertThat(r.out()).contains(" --env 'GREETING=hello;world' --env PET_NNODES=2 ");

    Run bad = run("plan", job.toString(), "--nodes", path("hostfiles/2x8.txt"), "--launcher=srun");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err())
        .isEqualTo("clusterrun: --launcher: expected mpirun or per-node, found 'srun'\n");

    Files.writeString(job, "launcher: pernode\ncommand: [x]\n");
    Run badFile = run("plan", job.toString(), "--nodes", path("hostfiles/2x8.txt"));
    assertThat(badFile.code()).isEqualTo(2);
    assertThat(badFile.err()).contains(job + ":1:11: launcher: expected mpirun or per-node");
  }

  @Test
  void mpirunOnlySettingsAreRefusedWithPerNodeAndPerNodeOnlyFlagsWithMpirun() {
    Run r = planTorch("--launcher=per-node", "--np=4", "--mpi-daemon=prted", "hostname");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "clusterrun: --np, --mpi-daemon: apply to the mpirun launcher only, not to per-node"
                + " (--launcher); per-node starts the command once on every node of the"
                + " hostfile\n");

    Run seed =
        run(
            "plan",
            path("examples/seed.yaml"),
            "--nodes",
            path("hostfiles/2x8.txt"),
            "--launcher=per-node");
    assertThat(seed.code()).isEqualTo(2);
    assertThat(seed.err()).contains(": mpi.hostfile: applies to the mpirun launcher only");

    Run label = planTorch("--keep-going", "hostname");
    assertThat(label.code()).isEqualTo(2);
    assertThat(label.err())
        .isEqualTo(
            "clusterrun: --keep-going: applies to --launcher=per-node only (the launcher is"
                + " mpirun: launcher)\n");

    Run fanout = planTorch("--launcher=per-node", "--fanout=1", "hostname");
    assertThat(fanout.code()).isEqualTo(2);
    assertThat(fanout.err())
        .isEqualTo(
            "clusterrun: --fanout: 1 is less than the 2 nodes that per-node starts at once; give"
                + " at least 2\n");
  }

  /** {@code plan --nodes 2x8 --container-image=/images/torch.sqsh --workspace=/shared/ws ARGS}. */
  static Run planTorch(String... args) {
    List<String> a = on2x8("plan");
    a.addAll(List.of("--container-image=/images/torch.sqsh", "--workspace=/shared/ws"));
    return run(a, args);
  }
}
