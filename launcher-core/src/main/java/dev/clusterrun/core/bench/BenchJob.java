package dev.clusterrun.core.bench;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.ImageRef;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A preset's job: the user's flags and {@code CLUSTERRUN_*} environment over the preset's defaults
 * (image, named container, workspace mount, NVSHMEM environment, the command).
 *
 * @param rq what was asked: the preset, its settings, the user's flags and environment
 * @param hostfile the nodes the job runs on
 * @param runId the run's id, for its directory and plan
 */
record BenchJob(BenchRequest rq, Hostfile hostfile, String runId) {
  /** Where the workspace appears in the container: not /workspace, where NVIDIA's scripts live. */
  static final String WORKSPACE_MOUNT = "/app";

  /** The named container NVIDIA HPC-Benchmarks presets share, reused across runs. */
  static final String HPC_BENCHMARKS_CONTAINER = "hpc-benchmarks";

  BenchPreset preset() {
    return rq.preset();
  }

  /**
   * The job for {@code command}; with {@code hpccWorkdir}, hpcc runs there (above the environment:
   * it must run where its input is, whatever the variables say).
   */
  ResolvedJob resolve(List<String> command, String hpccWorkdir) {
    JobResolver r = new JobResolver();
    r.layer(rq.input().flags(), Source.FLAG, "flags");
    if (rq.settings().mpiArgs() != null) {
      r.layer(
          new JobSpec(
              null,
              ContainerSpec.EMPTY,
              WorkspaceSpec.EMPTY,
              new MpiSpec(null, null, null, null, List.copyOf(rq.settings().mpiArgs()), null),
              null,
              SshSpec.EMPTY,
              "--mpi-arg"),
          Source.FLAG,
          "--mpi-arg");
    }
    if (hpccWorkdir != null) {
      r.layer(
          new JobSpec(
              null,
              new ContainerSpec(
                  null, null, null, hpccWorkdir, null, null, null, null, null, null, null),
              WorkspaceSpec.EMPTY,
              MpiSpec.EMPTY,
              null,
              SshSpec.EMPTY,
              "hpcc"),
          Source.DEFAULT,
          "hpcc preset: the run directory");
    }
    r.environment(rq.input().env());
    r.layer(presetLayer(command), Source.DEFAULT, preset().id() + " preset");
    return r.resolve(hostfile, rq.input().home(), rq.input().cwd());
  }

  private JobSpec presetLayer(List<String> command) {
    Map<String, String> env = preset().environment(options());
    Map<String, String> mca = new LinkedHashMap<>();
    if (!env.isEmpty()) {
      List<String> pairs = new ArrayList<>();
      env.forEach((k, v) -> pairs.add(k + "=" + v));
      // Open MPI sets these in every rank's environment, on every node (the seed's recipe).
      mca.put("mca_base_env_list", String.join(";", pairs));
    }
    String defaultImage = preset().defaultImage().orElse(null);
    return new JobSpec(
        preset().id(),
        ContainerSpec.of(
            defaultImage == null ? null : ImageRef.parse(defaultImage),
            defaultContainerName(preset())),
        new WorkspaceSpec(null, WORKSPACE_MOUNT),
        new MpiSpec(null, null, mca.isEmpty() ? null : mca, null, null, null),
        command,
        SshSpec.EMPTY,
        preset().id() + " preset");
  }

  static String defaultContainerName(BenchPreset p) {
    return p.defaultImage().isPresent() ? HPC_BENCHMARKS_CONTAINER : "clusterrun-" + p.id();
  }

  /** Presets with no default image need one (or an existing container the user names). */
  void requireContainer(ResolvedJob resolved) {
    if (resolved.image().value() == null && resolved.containerName().source() == Source.DEFAULT) {
      String what =
          preset() == BenchPreset.HPCC
              ? "an enroot URI or a .sqsh file with Debian's hpcc and Open MPI"
              : "an enroot URI or a .sqsh file with nccl-tests' all_reduce_perf";
      throw new BadInputException(
          "--container-image",
          preset().id()
              + " has no default image; give one ("
              + what
              + ") or --container-name of an existing container");
    }
  }

  /** What the preset's command is made from, before the nodes are asked anything. */
  PresetOptions options() {
    return rq.settings().presetOptions(rq.extraArgs());
  }

  /** The run directory as the ranks see it. */
  String runDirInContainer(ResolvedJob j) {
    String m = j.workspaceMount().value();
    return (m.endsWith("/") && m.length() > 1 ? m.substring(0, m.length() - 1) : m)
        + "/runs/"
        + runId;
  }

  Plan plan(ResolvedJob j) {
    return Planner.plan(
        j, hostfile, new PlanOptions(runId, LaunchAgent.Daemon.ORTED, rq.launch().hook()));
  }
}
