package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.Plan;
import dev.clusterrun.core.launch.PlanRenderer;
import dev.clusterrun.core.launch.Planner;
import dev.clusterrun.core.launch.ResolvedJob;
import dev.clusterrun.core.spec.SshSpec;
import java.security.SecureRandom;
import java.time.Instant;
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
      "  clusterrun plan --nodes hosts.txt --container-image=IMAGE hostname",
      "  clusterrun plan job.yaml --nodes hosts.txt --json",
      "Takes every option of `clusterrun run`, and its words the same way: the first word that"
          + " is not an option starts the command (or put it after --); a first word ending in"
          + " .yaml or .yml is the job file.",
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

  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin SshOptions ssh;

  @Parameters(
      paramLabel = "[JOB.yaml] [CMD [ARGS...]]",
      index = "0..*",
      arity = "0..*",
      parameterConsumer = CommandWords.WithJobFile.class,
      description = "The job file (ending in .yaml or .yml), then the command and its arguments.")
  CommandWords words;

  @Override
  public Integer call() {
    JobInput input = JobInput.split(spec, words);
    Hostfile hostfile = JobInput.hostfile(nodes.path);
    ResolvedJob resolved = input.resolve(job, root.env, hostfile);
    if (run.canaryOnly && run.noCanary) {
      throw new BadInputException("--canary", "contradicts --no-canary; give only one of them");
    }
    // What run would reach the nodes with: the flags over the job file's ssh section.
    ssh.merge(
        new SshSpec(
            resolved.sshUser().value(),
            resolved.sshPort().value(),
            resolved.sshIdentity().value(),
            resolved.knownHosts().value(),
            resolved.connectTimeout().value(),
            resolved.fanout().value()));
    boolean auto = run.daemon.equals("auto");
    // With auto, run asks mpirun --version in the container; the plan shows Open MPI 4's orted.
    LaunchAgent.Daemon d = auto ? LaunchAgent.Daemon.ORTED : Daemons.parse(run.daemon);
    String runId = Planner.newRunId(resolved.name().value(), Instant.now(), new SecureRandom());
    Plan plan = Planner.plan(resolved, hostfile, new Planner.Options(runId, d, !job.noHook, auto));
    root.out.print(json ? PlanRenderer.json(plan) : PlanRenderer.text(plan));
    root.out.flush();
    return ExitCodes.OK;
  }
}
