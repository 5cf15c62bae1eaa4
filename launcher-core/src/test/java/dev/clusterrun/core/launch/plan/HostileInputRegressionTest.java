package dev.clusterrun.core.launch.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.cluster.HostfileParser;
import dev.clusterrun.core.enroot.LaunchAgent;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SpecLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The holes the hostile-input property test ({@code HostileInputPropertyTest}) found, one test
 * each, named after what it found. Each value here was accepted before, and ran, broke or lost
 * something on its way to the container; now it is refused with exit 2 and a message naming its
 * field (see {@code docs/reliability.md}).
 */
class HostileInputRegressionTest {
  static final Path CWD = Path.of("/home/alice/proj");

  static ResolvedJob resolve(Map<String, String> env, String yaml) {
    // line 1 is the command; the test's own lines start at line 2
    String text = "command: [hostname]\n" + yaml;
    if (!yaml.contains("container:")) {
      text += "container: {image: ubuntu}\n";
    }
    JobSpec file = SpecLoader.parse(text, "job.yaml");
    return new JobResolver()
        .environment(env)
        .layer(file, Source.FILE, "job.yaml")
        .resolve(
            HostfileParser.parse("node01 slots=2\nnode02 slots=2\n", "hosts.txt"), home(env), CWD);
  }

  static String home(Map<String, String> env) {
    return env.getOrDefault("HOME", "/home/alice");
  }

  static Plan plan(ResolvedJob job) {
    return Planner.plan(
        job,
        HostfileParser.parse("node01 slots=2\nnode02 slots=2\n", "hosts.txt"),
        new PlanOptions("RUN", LaunchAgent.Daemon.ORTED, true));
  }

  static BadInputException refused(Map<String, String> env, String yaml) {
    try {
      plan(resolve(env, yaml));
    } catch (BadInputException e) {
      return e;
    }
    throw new AssertionError("accepted: " + yaml + " with " + env);
  }

  static BadInputException refused(String yaml) {
    return refused(Map.of(), yaml);
  }

  /**
   * The job file is refused with {@code subject}, its problem containing every one of {@code
   * parts}.
   */
  static void assertRefused(String yaml, String subject, String... parts) {
    BadInputException e = refused(yaml);
    assertThat(e.subject()).isEqualTo(subject);
    assertThat(e.problem()).contains(parts);
  }

  // Open MPI passes its launch agent on to every daemon as -mca orte_launch_agent "AGENT", in
  // double quotes on the remote shell's line: $(…), `…`, " and \ in an agent word ran there.

  @Test
  void aMountPathWithCommandSubstitutionWouldRunOnEveryOtherNode() {
    assertRefused(
        "mpi: {}\ncontainer: {image: u, mounts: ['/data/$(touch${IFS}x):/d']}\n",
        "job.yaml:3:32: container.mounts[0]",
        "'$'",
        "double quotes");
  }

  @Test
  void aWorkspacePathWithABacktickWouldRunOnEveryOtherNode() {
    assertRefused("workspace: {path: '/ws/`id>x`'}\n", "job.yaml:2:19: workspace.path", "'`'");
  }

  @Test
  void aContainerEnvValueWithADoubleQuoteWouldEndOpenMpisQuotes() {
    assertRefused(
        "mpi: {}\ncontainer: {image: u, env: {X: 'a\"&&touch${IFS}x&&\"'}}\n",
        "job.yaml:3:32: container.env.X",
        "env-from-host");
  }

  @Test
  void aRelativeMountFromACurrentDirectoryWithADollarWouldRunOnEveryOtherNode() {
    ResolvedJob ok = resolve(Map.of(), "mpi: {}\ncontainer: {image: u, mounts: ['./data:/d']}\n");
    assertThat(ok.mounts().value().get(0).source()).isEqualTo("/home/alice/proj/data");
    JobSpec file =
        SpecLoader.parse(
            "container: {image: u, mounts: ['./data:/d']}\ncommand: [x]\n", "job.yaml");
    assertThatThrownBy(
            () ->
                new JobResolver()
                    .layer(file, Source.FILE, "job.yaml")
                    .resolve(HostfileParser.parse("n1\n", "h"), "/home/a", Path.of("/tmp/$(id>x)")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("job.yaml: container.mounts: mount source '/tmp/$(id>x)/data'");
  }

  // Open MPI passes its own MCA settings to the daemons on other nodes through their shell, each
  // value in double quotes.

  @Test
  void anMcaValueWithCommandSubstitutionWouldRunOnEveryOtherNode() {
    assertRefused(
        "mpi: {mca: {btl_tcp_if_include: '$(touch x)'}}\n",
        "job.yaml:2:33: mpi.mca.btl_tcp_if_include",
        "MCA values",
        "double quotes");
  }

  @Test
  void aHostValueOfAnOpenMpiVariableWithABacktickWouldRunOnEveryOtherNode() {
    BadInputException e =
        refused(
            Map.of("OMPI_MCA_btl_tcp_if_include", "`touch x`"),
            "mpi: {}\ncontainer: {image: u, env-from-host: [OMPI_MCA_btl_tcp_if_include]}\n");
    assertThat(e.subject()).isEqualTo("job.yaml: container.env-from-host");
    assertThat(e.problem()).contains("OMPI_MCA_btl_tcp_if_include").contains("'`'");
  }

  // enroot writes the container's environment one NAME=VALUE a line, drops ENROOT_*, and strips
  // quotes around a value.

  @Test
  void aHostValueWithANewlineWouldInjectAVariableIntoTheContainer() {
    Map<String, String> env = new HashMap<>();
    env.put("TOKEN_FILE", "/tmp/t\nLD_PRELOAD=/tmp/evil.so");
    env.put("CLUSTERRUN_CONTAINER_ENV", "TOKEN_FILE");
    BadInputException e = refused(env, "");
    assertThat(e.subject()).isEqualTo("CLUSTERRUN_CONTAINER_ENV");
    assertThat(e.problem()).contains("TOKEN_FILE holds a newline");
  }

  @Test
  void aHostValueWrappedInQuotesWouldLoseThem() {
    Map<String, String> env = Map.of("GREETING", "'hello'", "CLUSTERRUN_CONTAINER_ENV", "GREETING");
    assertThat(refused(env, "").problem()).contains("wrapped in quotes");
  }

  @Test
  void aContainerEnvValueWrappedInQuotesWouldLoseThem() {
    assertRefused(
        "mpi: {}\ncontainer: {image: u, env: {X: \"'quoted'\"}}\n",
        "job.yaml:3:32: container.env.X",
        "wrapped in quotes");
  }

  @Test
  void anEnrootVariableInContainerEnvWasDroppedSilently() {
    BadInputException e =
        refused("mpi: {}\ncontainer: {image: u, env: {ENROOT_ROOTFS_WRITABLE: y}}\n");
    assertThat(e.subject()).isEqualTo("job.yaml:3:29: container.env.ENROOT_ROOTFS_WRITABLE");
    assertThat(e.problem()).contains("enroot keeps ENROOT_* variables out");
    assertThat(
            refused(Map.of("ENROOT_X", "1", "CLUSTERRUN_CONTAINER_ENV", "ENROOT_X"), "").subject())
        .isEqualTo("CLUSTERRUN_CONTAINER_ENV");
  }

  @Test
  void theRunIdCouldBeOverriddenByContainerEnv() {
    BadInputException e = refused("mpi: {}\ncontainer: {image: u, env: {CLUSTERRUN_RUN_ID: x}}\n");
    assertThat(e.problem()).contains("set by clusterrun itself");
  }

  // Paths and names.

  @Test
  void anMpiHostfileWithDotDotWasWrittenOutsideTheWorkspace() {
    assertRefused(
        "mpi: {hostfile: /workspace/../../etc/cron.d/x}\n", "job.yaml:2:17: mpi.hostfile", "'..'");
  }

  @Test
  void aWorkspaceMountWithDotDotLeftTheContainer() {
    assertThat(refused("workspace: {mount: /w/../..}\n").subject())
        .isEqualTo("job.yaml:2:20: workspace.mount");
  }

  @Test
  void aHomeWithWhiteSpaceOrADollarWasNamedOnlyAsTheLaunchAgent() {
    for (String home : List.of("/home/a b", "/home/$(id>x)", "/home/a\u001B[2J", "relative")) {
      BadInputException e = refused(Map.of("HOME", home), "");
      assertThat(e.subject()).as(home).isEqualTo("HOME");
      assertThat(e.problem()).as(home).contains("--workspace");
    }
  }

  @Test
  void aJobNameLongerThanADirectoryNameBrokeTheRunDirectory() {
    assertThat(refused("name: " + "a".repeat(129) + "\n").problem())
        .contains("at most " + SpecLoader.MAX_JOB_NAME);
  }

  // mpirun reads a lone ':' as the start of another program, a first '-' as its own option.

  @Test
  void aLoneColonInTheCommandWasTakenByMpirun() {
    BadInputException e =
        assertThrowsBadInput(() -> SpecLoader.parse("command: [bash, -c, x, ':']\n", "job.yaml"));
    assertThat(e.subject()).isEqualTo("job.yaml:1:24: command[3]");
    assertThat(e.problem()).contains("separates programs");
  }

  @Test
  void aProgramStartingWithADashWasTakenByMpirunAsAnOption() {
    JobSpec flags = new JobSpec(null, null, null, null, List.of("--version"), null, "flags");
    BadInputException e =
        assertThrowsBadInput(
            () ->
                new JobResolver()
                    .layer(flags, Source.FLAG, "flags")
                    .resolve(HostfileParser.parse("n1\n", "h"), "/home/a", CWD));
    assertThat(e.subject()).isEqualTo("CMD ARGS");
    assertThat(e.problem()).contains("mpirun would read as one of its own options");
  }

  // Linux passes at most 128 KiB in one argument: the run would fail at exec, after the checks.

  @Test
  void aWordLongerThanLinuxPassesFailedOnlyWhenTheJobStarted() {
    String big = "x".repeat(200_000);
    BadInputException e =
        assertThrowsBadInput(() -> SpecLoader.parse("command: [echo, " + big + "]\n", "job.yaml"));
    assertThat(e.subject()).isEqualTo("job.yaml:1:17: command[1]");
    assertThat(e.problem()).contains("200000 bytes long").doesNotContain(big);
  }

  // What only a job file can spell, and no program can be given.

  @Test
  void aNulOrAnUnpairedSurrogateInTheJobFileReachedArgvAsGarbage() {
    assertThat(
            assertThrowsBadInput(() -> SpecLoader.parse("command: [\"a\\0b\"]\n", "job.yaml"))
                .subject())
        .isEqualTo("job.yaml:1:11: command[0]");
    BadInputException s =
        assertThrowsBadInput(
            () -> SpecLoader.parse("container: {workdir: \"/w\\uD800\"}\n", "job.yaml"));
    assertThat(s.subject()).isEqualTo("job.yaml:1:22: container.workdir");
    assertThat(s.problem()).contains("unpaired surrogate").contains("\\uD800");
    assertThat(assertThrowsBadInput(() -> SpecLoader.parse("\"k\\0\": 1\n", "job.yaml")).subject())
        .startsWith("job.yaml:1:1:");
  }

  // A value echoed in a message moved the terminal or split the line.

  @Test
  void aMessageEchoedEscapeSequencesAndNewlinesAsTheyWere() {
    BadInputException e =
        assertThrowsBadInput(
            () ->
                SpecLoader.parse("name: \"a\\e[2J\\nclusterrun: all good\\u202E\"\n", "job.yaml"));
    assertThat(e.getMessage())
        .doesNotContain("\u001B")
        .doesNotContain("\n")
        .doesNotContain("\u202E")
        .contains("a\\u001B[2J\\nclusterrun: all good\\u202E");
    assertThat(BadInputException.visible("tab\there é 😀 e\u0301"))
        .isEqualTo("tab\\there é 😀 e\u0301");
  }

  static BadInputException assertThrowsBadInput(Runnable r) {
    try {
      r.run();
    } catch (BadInputException e) {
      return e;
    }
    throw new AssertionError("accepted");
  }
}
