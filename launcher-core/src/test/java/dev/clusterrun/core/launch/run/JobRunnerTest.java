package dev.clusterrun.core.launch.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.cleanup.RemoteReaperTest;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.head.Signals;
import dev.clusterrun.core.launch.job.CanaryMode;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.mpirun.MpirunLauncher;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.NodeShell;
import dev.clusterrun.core.session.Console;
import dev.clusterrun.core.session.FanOut;
import dev.clusterrun.core.session.Progress;
import dev.clusterrun.core.session.Session;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRunnerTest {
  @TempDir Path ws;

  @Test
  void aRunInterruptedWhilePreparingStillSearchesEveryNodeForLeftovers() throws Exception {
    interruptedWhilePreparing(0, 130);
  }

  /** SIGTERM and SIGHUP stop the run as Ctrl-C does; clusterrun exits 128 + the signal. */
  @Test
  void aRunStoppedBySigtermOrSighupExits143Or129() throws Exception {
    interruptedWhilePreparing(Signals.SIGTERM, 143);
    interruptedWhilePreparing(1, 129);
  }

  /**
   * @param signal the signal that stops the run first, 0 for none (the thread is interrupted)
   */
  private void interruptedWhilePreparing(int signal, int exit) throws Exception {
    JobSpec f =
        JobSpecBuilder.hostnameJob(ws.toString()).image("/i.sqsh").containerName("named").build();
    ResolvedJob job = PlannerTest.resolved(f);
    AtomicInteger asked = new AtomicInteger();
    NodeShell counting =
        new NodeShell() {
          final RemoteReaperTest.ShShell sh = new RemoteReaperTest.ShShell();

          @Override
          public String node() {
            return "gpu01";
          }

          @Override
          public ExecResult run(String script, Duration timeout) {
            asked.incrementAndGet();
            return sh.run(script, timeout);
          }

          @Override
          public void close() {}
        };
    MpirunLauncher mpirun = mpirun(job);
    JobRunner runner =
        new JobRunner(
            INTERRUPTED,
            new Session(
                PlannerTest.TWO_BY_EIGHT,
                "gpu01",
                Map.of("gpu01", counting),
                Map.of(),
                new FanOut(2),
                Progress.NONE),
            new Console(
                Progress.NONE,
                new ByteArrayOutputStream(),
                new ByteArrayOutputStream(),
                null,
                null));
    if (signal > 0) {
      runner.interrupt(signal);
    }
    RunSummary r =
        runner.run(new JobRunner.Request(mpirun.firstPlan(), ws.toString(), null, "test", mpirun));
    assertThat(Thread.interrupted()).as("the interruption is passed on to the caller").isTrue();
    assertThat(r.exitCode()).isEqualTo(exit);
    assertThat(r.outcome().label()).isEqualTo("interrupted");
    assertThat(asked.get()).as("the node was searched for leftovers").isEqualTo(1);
    assertThat(r.leftovers()).singleElement().satisfies(o -> assertThat(o.error()).isNull());
  }

  @Test
  void aNamedContainerWithoutAnImageIsSaidToBeUsedAsItIs() throws Exception {
    JobSpec f = JobSpecBuilder.hostnameJob(ws.toString()).containerName("mine").build();
    ResolvedJob job = PlannerTest.resolved(f);
    List<String> said = new java.util.ArrayList<>();
    Progress saying =
        new Progress() {
          @Override
          public void note(String line) {
            said.add(line);
          }
        };
    MpirunLauncher mpirun = mpirun(job);
    new JobRunner(
            INTERRUPTED,
            new Session(
                PlannerTest.TWO_BY_EIGHT, "gpu01", Map.of(), Map.of(), new FanOut(2), saying),
            new Console(
                saying, new ByteArrayOutputStream(), new ByteArrayOutputStream(), null, null))
        .run(new JobRunner.Request(mpirun.firstPlan(), ws.toString(), null, "test", mpirun));
    Thread.interrupted();
    assertThat(said)
        .first()
        .isEqualTo("container mine: using the existing container (no image given)");
    assertThat(String.join("\n", said)).doesNotContain("null");
  }

  /** A head interrupted at its first command (enroot list, while preparing the container). */
  private static final HeadCommands INTERRUPTED =
      (argv, env, out, err) -> {
        throw new InterruptedException();
      };

  private static MpirunLauncher mpirun(ResolvedJob job) {
    return new MpirunLauncher(
        MpirunLauncher.Config.of(
            d -> Planner.plan(job, PlannerTest.TWO_BY_EIGHT, new PlanOptions("RUN", d, true)),
            LaunchAgent.Daemon.ORTED,
            CanaryMode.OFF));
  }
}
