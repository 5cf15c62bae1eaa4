package dev.clusterrun.cli;

import dev.clusterrun.core.bench.BenchFlow;
import dev.clusterrun.core.bench.BenchOutcome;
import dev.clusterrun.core.bench.BenchPreset;
import dev.clusterrun.core.bench.BenchRequest;
import dev.clusterrun.core.launch.job.JobWords;
import picocli.CommandLine.Mixin;

/**
 * What {@code hpl} and {@code bench} take after the benchmark's own options: the job's, the run's
 * and the SSH flags (no {@code --launcher}: the presets are mpirun jobs).
 */
final class BenchRunOptions {
  @Mixin JobOptions job;
  @Mixin RunOptions run;
  @Mixin SshOptions ssh;

  /** Runs {@code preset} with these options, here or --detach'ed; {@code args} replace its own. */
  int run(
      BenchPreset preset,
      BenchOptions bench,
      CommandWords args,
      NodesOption nodes,
      RootCommand root)
      throws Exception {
    BenchRequest rq =
        new BenchRequest(
            preset,
            job.input(nodes, JobWords.NONE, ssh, root.env, null),
            run.options(job),
            bench.toSettings(),
            args == null ? null : args.command,
            VersionProvider.version());
    return run.start(root, console -> render(BenchFlow.run(rq, console), root));
  }

  /** What {@code hpl} and {@code bench} print: why the job did not run, else the summary. */
  private static int render(BenchOutcome outcome, RootCommand root) {
    if (outcome.launch() != null) {
      RunCommand.render(outcome.launch(), root.err);
    }
    for (String text : outcome.stdout()) {
      root.out.print(text.endsWith("\n") ? text : text + "\n");
    }
    root.out.flush();
    return outcome.exitCode();
  }
}
