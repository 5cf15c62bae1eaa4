package dev.clusterrun.core.launch.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.JobSpecBuilder;
import dev.clusterrun.core.spec.LauncherKind;
import dev.clusterrun.core.spec.Mount;
import dev.clusterrun.core.spec.MpiSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code run} checks the job before any node is asked without making its plan ({@link
 * Planner#check}), then makes the one plan from the nodes' facts: the check must refuse what the
 * plan refuses, in the same words, and let through what the plan makes.
 */
class PlannerCheckTest {
  private static final PlanOptions ORTED = new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true);

  private static JobSpec job(
      String file, List<Mount> mounts, Map<String, String> env, Integer np, LauncherKind l) {
    return JobSpecBuilder.layer(file)
        .image("/i.sqsh")
        .containerName("c")
        .parts(
            c -> {
              c.mounts = mounts;
              c.env = env;
            })
        .workspace("/ws", "/app")
        .mpi(new MpiSpec(np, null, null, null, null, null))
        .command("x")
        .launcher(l)
        .build();
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of("more ranks than slots", job("n.yaml", null, null, 17, null)),
        Arguments.of(
            "a mount over the workspace",
            job("h.yaml", List.of(Mount.parse("/x:/app")), null, null, null)),
        Arguments.of(
            "white space in the launch agent",
            job("w.yaml", null, Map.of("A", "two words"), null, null)),
        Arguments.of(
            "a launch agent too long",
            job("l.yaml", null, Map.of("A", "x".repeat(41 * 1024)), null, null)),
        Arguments.of(
            "per-node: more ranks than slots",
            job("p.yaml", null, null, 17, LauncherKind.PER_NODE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void theCheckRefusesWhatThePlanRefusesInTheSameWords(String what, JobSpec bad) {
    ResolvedJob job = resolve(bad);
    Throwable byPlan = catchThrowable(() -> Planner.plan(job, PlannerTest.TWO_BY_EIGHT, ORTED));
    assertThat(byPlan).as("the plan refuses it").isInstanceOf(BadInputException.class);
    Throwable byCheck = catchThrowable(() -> Planner.check(job, PlannerTest.TWO_BY_EIGHT, ORTED));
    assertThat(byCheck).isInstanceOf(BadInputException.class).hasMessage(byPlan.getMessage());
  }

  static Stream<Arguments> made() {
    return Stream.of(
        Arguments.of("a named container", job("a.yaml", null, Map.of("A", "b"), 16, null)),
        Arguments.of(
            "a registry image started directly",
            JobSpecBuilder.layer("r.yaml")
                .image("docker://r#a/b:1")
                .workspace("/ws", "/app")
                .command("x")
                .build()),
        Arguments.of(
            "per-node",
            job("p.yaml", List.of(Mount.parse("/x:/data")), null, null, LauncherKind.PER_NODE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("made")
  void theCheckLetsThroughWhatThePlanMakes(String what, JobSpec good) {
    ResolvedJob job = resolve(good);
    assertThat(Planner.plan(job, PlannerTest.TWO_BY_EIGHT, ORTED).runId()).isEqualTo("RUN");
    assertThatCode(() -> Planner.check(job, PlannerTest.TWO_BY_EIGHT, ORTED))
        .doesNotThrowAnyException();
  }

  private static ResolvedJob resolve(JobSpec f) {
    return new JobResolver()
        .layer(f, Source.FILE, f.source())
        .resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice");
  }
}
