package dev.clusterrun.cli;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.ContainerPreparer;
import dev.clusterrun.core.launch.Plan;
import dev.clusterrun.core.launch.PlanRenderer;
import dev.clusterrun.core.launch.Planner;
import dev.clusterrun.core.launch.ResolvedJob;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    name = "plan",
    sortOptions = false,
    description = {
      "Print the exact commands a run would execute, touching no node.",
      "Shows the enroot import/create"
          + " steps, the head's enroot start … mpirun command, the launch agent, the hostfile"
          + " mpirun reads, and where each setting came from (flag, environment, file, default)."
    })
final class PlanCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Mixin NodesOption nodes;

  @Option(names = "--json", description = "Print the plan as JSON.")
  boolean json;

  @Option(
      names = "--mpi-daemon",
      paramLabel = "orted|prted",
      description =
          "Daemon the launch agent starts: orted (Open MPI 4, default) or prted (Open MPI 5). `run` detects it in the container.")
  String daemon = "orted";

  @Mixin JobOptions job;

  @Parameters(
      paramLabel = "[JOB.yaml] [-- CMD [ARGS...]]",
      description = "Job file, and/or the command after --.")
  List<String> words;

  @Override
  public Integer call() {
    JobInput input = JobInput.split(spec, words);
    Hostfile hostfile = JobInput.hostfile(nodes.path);
    ResolvedJob resolved = input.resolve(job, root.env, hostfile);
    LaunchAgent.Daemon d = Daemons.parse(daemon);
    String runId = Planner.newRunId(resolved.name().value(), Instant.now(), new SecureRandom());
    Plan plan =
        ContainerPreparer.lookUp(
            Planner.plan(resolved, hostfile, new Planner.Options(runId, d, !job.noHook)),
            resolved.workspacePath().value());
    root.out.print(json ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
    root.out.flush();
    return ExitCodes.OK;
  }
}
