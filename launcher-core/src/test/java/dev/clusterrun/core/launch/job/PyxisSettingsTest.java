package dev.clusterrun.core.launch.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlanOptions;
import dev.clusterrun.core.launch.plan.PlanRenderer;
import dev.clusterrun.core.launch.plan.Planner;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.remote.ShellQuote;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SpecLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pyxis habits the resolver and the planner honour: {@code PYXIS_CONTAINER_*} variables, relative
 * paths, saving a read-only container, {@code --no-container-entrypoint}.
 */
class PyxisSettingsTest {
  static final Path CWD = Path.of("/home/alice/proj");

  static JobSpec file(String yaml) {
    return SpecLoader.parse(
        "workspace: {path: /ws, mount: /app}\ncommand: [x]\n" + yaml, "job.yaml");
  }

  static ResolvedJob resolve(Map<String, String> env, String yaml) {
    return new JobResolver()
        .environment(env)
        .layer(file(yaml), Source.FILE, "job.yaml")
        .resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice", CWD);
  }

  static Plan plan(ResolvedJob job) {
    return Planner.plan(
        job, PlannerTest.TWO_BY_EIGHT, new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  @Test
  void pyxisVariablesAreAliasesAndTheClusterrunNameWins() {
    Map<String, String> env = new HashMap<>();
    env.put("PYXIS_CONTAINER_IMAGE", "ubuntu:22.04");
    env.put("PYXIS_CONTAINER_MOUNTS", "/home:/test-mnt");
    env.put("PYXIS_CONTAINER_WORKDIR", "/usr/local/bin");
    env.put("CLUSTERRUN_CONTAINER_WORKDIR", "/tmp");
    env.put("PYXIS_CONTAINER_REMAP_ROOT", "1");
    env.put("PYXIS_CONTAINER_READONLY", "0");
    env.put("PYXIS_CONTAINER_ENV", "CUDA_VERSION");
    env.put("PYXIS_CONTAINER_ENTRYPOINT", "0");
    ResolvedJob j = resolve(env, "");
    assertThat(j.image().value().value()).isEqualTo("docker://ubuntu:22.04");
    assertThat(j.image().origin()).isEqualTo("PYXIS_CONTAINER_IMAGE");
    assertThat(j.mounts().origin()).isEqualTo("PYXIS_CONTAINER_MOUNTS");
    assertThat(j.workdir().value()).isEqualTo("/tmp");
    assertThat(j.workdir().origin()).isEqualTo("CLUSTERRUN_CONTAINER_WORKDIR");
    assertThat(j.remapRoot().value()).isTrue();
    assertThat(j.writable().value()).isTrue();
    assertThat(j.writable().origin()).isEqualTo("PYXIS_CONTAINER_READONLY");
    assertThat(j.envFromHost().value()).containsExactly("CUDA_VERSION");
    assertThat(j.entrypoint().value()).isFalse();
    assertThat(j.entrypoint().origin()).isEqualTo("PYXIS_CONTAINER_ENTRYPOINT");

    // The clusterrun pair beats the Pyxis pair as a whole.
    env.put("CLUSTERRUN_CONTAINER_WRITABLE", "0");
    assertThat(resolve(env, "").writable().value()).isFalse();
    // plan says which variable set a value.
    assertThat(PlanRenderer.text(plan(resolve(env, ""))))
        .containsPattern(
            "container.image +docker://ubuntu:22.04 +environment \\(PYXIS_CONTAINER_IMAGE\\)");
  }

  @Test
  void pyxisVariablesAreCheckedByTheSameRulesAndNamed() {
    assertThatThrownBy(() -> resolve(Map.of("PYXIS_CONTAINER_MOUNTS", "/a:/b:bogus"), ""))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(
            "PYXIS_CONTAINER_MOUNTS: mount '/a:/b:bogus': unknown flag 'bogus'");
    assertThatThrownBy(() -> resolve(Map.of("PYXIS_CONTAINER_WRITABLE", "maybe"), ""))
        .hasMessageStartingWith("PYXIS_CONTAINER_WRITABLE: 'maybe' is not a boolean");
    assertThatThrownBy(() -> resolve(Map.of("PYXIS_CONTAINER_UNSHARE", "net"), ""))
        .hasMessageStartingWith("PYXIS_CONTAINER_UNSHARE: clusterrun does not unshare");
    assertThatThrownBy(() -> EnvironmentLayer.read(Map.of("PYXIS_CONTAINER_UNSHARE", "net")))
        .hasMessageStartingWith("PYXIS_CONTAINER_UNSHARE:");
    // The merged single layer too (for callers that take one environment layer).
    assertThat(
            EnvironmentLayer.read(
                    Map.of("PYXIS_CONTAINER_NAME", "p", "CLUSTERRUN_CONTAINER_NAME", "c"))
                .container()
                .name())
        .isEqualTo("c");
    assertThat(EnvironmentLayer.read(Map.of("PYXIS_CONTAINER_NAME", "p")).container().name())
        .isEqualTo("p");
  }

  @Test
  void relativePathsAreFromTheCurrentDirectoryAndShownAbsolute() {
    ResolvedJob j =
        resolve(
            Map.of(),
            "container:\n  image: ./ubuntu.sqsh\n  save: ../out.sqsh\n  mounts: [./data:/data:ro,"
                + " ../x:/x]\n");
    assertThat(j.image().value().value()).isEqualTo("/home/alice/proj/ubuntu.sqsh");
    assertThat(j.save().value()).isEqualTo("/home/alice/out.sqsh");
    assertThat(j.mounts().value())
        .extracting(m -> m.source())
        .containsExactly("/home/alice/proj/data", "/home/alice/x");
    Plan p = plan(j);
    assertThat(PlanRenderer.text(p))
        .contains("--mount /home/alice/proj/data:/data:none:x-create=auto,rbind,ro")
        .contains("--mount /home/alice/x:/x ")
        .contains("enroot export --output /home/alice/out.sqsh ")
        .contains("enroot create --name clusterrun-RUN /home/alice/proj/ubuntu.sqsh");
  }

  @Test
  void aRelativeSourceInADirectoryWithWhiteSpaceIsBadInput() {
    assertThatThrownBy(
            () ->
                new JobResolver()
                    .layer(
                        file("container: {image: /i.sqsh, mounts: [./data:/data]}\n"),
                        Source.FILE,
                        "job.yaml")
                    .resolve(
                        PlannerTest.TWO_BY_EIGHT, "/home/alice", Path.of("/home/alice/my proj")))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "job.yaml: container.mounts: mount source '/home/alice/my proj/data' contains white"
                + " space, which enroot's --mount and Open MPI's launch agent cannot carry");
  }

  @Test
  void aReadOnlyContainerIsSavedToo() {
    ResolvedJob j = resolve(Map.of(), "container: {image: /i.sqsh, save: /s/out.sqsh}\n");
    assertThat(j.writable().value()).isFalse();
    Plan p = plan(j);
    assertThat(p.launch()).doesNotContain("--rw");
    assertThat(p.cleanup())
        .extracting(Plan.Step::argv)
        .contains(
            java.util.List.of("enroot", "export", "--output", "/s/out.sqsh", "clusterrun-RUN"));
  }

  @Test
  void withoutTheEntrypointEveryContainerSourcesAnRcLocalThatExecsTheCommand() {
    Plan with = plan(resolve(Map.of(), "container: {image: /i.sqsh}\n"));
    assertThat(with.runFiles())
        .containsOnlyKeys("/ws/runs/RUN/agent-proof.sh", "/ws/runs/RUN/agent-join.sh");
    assertThat(ShellQuote.join(with.launch())).doesNotContain("rc.local");

    Plan without = plan(resolve(Map.of(), "container: {image: /i.sqsh, entrypoint: false}\n"));
    String rcLocal = "/ws/runs/RUN/rc.local";
    assertThat(without.runFiles())
        .containsOnlyKeys("/ws/runs/RUN/agent-proof.sh", "/ws/runs/RUN/agent-join.sh", rcLocal);
    assertThat(without.runFiles().get(rcLocal)).endsWith("exec \"$@\"\n");
    String words = rcLocal + ":/etc/rc.local:none:x-create=auto,rbind,ro";
    assertThat(without.launch()).containsSubsequence("--mount", words);
    assertThat(without.canaryLaunch()).containsSubsequence("--mount", words);
    assertThat(without.agent()).containsSubsequence("--mount", words);
  }

  @Test
  void planSaysHowTheDaemonIsChosen() {
    ResolvedJob j = resolve(Map.of(), "container: {image: /i.sqsh}\n");
    Plan auto =
        Planner.plan(
            j,
            PlannerTest.TWO_BY_EIGHT,
            new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true, true));
    assertThat(PlanRenderer.text(auto))
        .containsPattern("mpi.daemon +orted +default \\(auto: run asks mpirun --version");
    Plan fixed =
        Planner.plan(
            j, PlannerTest.TWO_BY_EIGHT, new PlanOptions("RUN", LaunchAgent.Daemon.PRTED, true));
    assertThat(PlanRenderer.text(fixed))
        .containsPattern("mpi.daemon +prted +flag \\(--mpi-daemon\\)");
  }
}
