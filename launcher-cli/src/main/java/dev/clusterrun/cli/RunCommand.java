package dev.clusterrun.cli;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.Planner;
import dev.clusterrun.core.launch.ResolvedJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    name = "run",
    sortOptions = false,
    description = {
      "Run a job across the nodes, mpirun and its daemons inside the container.",
      "  clusterrun run --nodes hosts.txt --container-image=IMAGE hostname",
      "  clusterrun run job.yaml --nodes hosts.txt",
      "As with srun, the first word that is not an option starts the command and the words"
          + " after it are the command's, options included (or put the command after --). A"
          + " first word ending in .yaml or .yml is the job file.",
      "Checks, the container once in the shared data path, a canary that"
          + " proves every rank is inside the container, then `enroot start … NAME mpirun …` on the head"
          + " with Open MPI's daemons started inside the same container on every other node.",
      "Output streams live; the run directory keeps the job, the plan, the logs and summary.json."
    })
final class RunCommand implements Callable<Integer> {
  @ParentCommand RootCommand root;
  @Spec CommandSpec spec;

  @Mixin NodesOption nodes;

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
  public Integer call() throws Exception {
    JobInput input = JobInput.split(spec, words);
    Hostfile hostfile = JobInput.hostfile(nodes.path);
    ResolvedJob resolved = input.resolve(job, root.env, hostfile);
    JobInput.checkOnTheHead(resolved);
    String runId = Planner.newRunId(resolved.name().value(), Instant.now(), new SecureRandom());
    // Fail on a plan error (bad mounts, np) before touching any node.
    Planner.plan(
        resolved,
        hostfile,
        new Planner.Options(
            runId, dev.clusterrun.core.enroot.LaunchAgent.Daemon.ORTED, !job.noHook));
    String jobText =
        input.jobFile == null ? null : Files.readString(input.jobFile, StandardCharsets.UTF_8);
    return JobLaunch.run(root, hostfile, resolved, ssh, run, !job.noHook, runId, jobText)
        .exitCode();
  }
}
