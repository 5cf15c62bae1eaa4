package dev.clusterrun.core.enroot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.GoldenText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the real hook text with real shells, the way enroot runs a hook: environment in, file out.
 */
class LaunchAgentHookTest {
  @TempDir Path tmp;

  record Run(int exit, String stderr, String environ) {}

  /** Runs the hook with {@code shell} ("exec" = run the file itself through its #! line). */
  private Run runHook(String shell, Map<String, String> env) throws Exception {
    Path hook = tmp.resolve(LaunchAgentHook.FILE_NAME);
    Files.writeString(hook, LaunchAgentHook.content(), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path environ = tmp.resolve("environ");
    if (!Files.exists(environ)) {
      Files.writeString(environ, "PATH=/usr/bin:/bin\n");
    }
    List<String> argv = new ArrayList<>();
    if (!shell.equals("exec")) {
      argv.add(shell);
    }
    argv.add(hook.toString());
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(false);
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("ENROOT_ENVIRON", environ.toString());
    pb.environment().putAll(env);
    Path err = tmp.resolve("stderr");
    pb.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), Files.readString(err), Files.readString(environ));
  }

  static Stream<String> shells() {
    return Stream.of("sh", "dash", "bash", "exec").filter(LaunchAgentHookTest::available);
  }

  private static boolean available(String shell) {
    return shell.equals("exec") || Files.isExecutable(Path.of("/bin", shell));
  }

  /**
   * The environ the hook writes when it gives Open MPI and PRRTE the launch agent {@code agent}.
   */
  private static String agentEnviron(String agent) {
    return "PATH=/usr/bin:/bin\n"
        + "OMPI_MCA_orte_launch_agent="
        + agent
        + "\n"
        + "PRTE_MCA_prte_launch_agent="
        + agent
        + "\n";
  }

  @Test
  void headerCarriesTheVersionAndChecksumMatchesSha256sum() throws IOException, Exception {
    String[] lines = LaunchAgentHook.content().split("\n");
    assertThat(lines[0]).isEqualTo("#!/bin/sh");
    assertThat(lines[1])
        .isEqualTo("# clusterrun-launch-agent-hook version " + LaunchAgentHook.VERSION);
    assertThat(LaunchAgentHook.content()).contains("\nset -eu\n").endsWith("\n");
    assertThat(LaunchAgentHook.versionOf(LaunchAgentHook.content()))
        .hasValue(LaunchAgentHook.VERSION);
    assertThat(LaunchAgentHook.ENV_VAR).isEqualTo("CLUSTERRUN_LAUNCH_AGENT");

    Path f = tmp.resolve("hook");
    Files.writeString(f, LaunchAgentHook.content(), StandardCharsets.UTF_8);
    Process p = new ProcessBuilder("sha256sum", f.toString()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(out).startsWith(LaunchAgentHook.sha256() + " ");
  }

  /** The template filled in is the hook's text byte for byte as versions before it wrote it. */
  @Test
  void theHookIsTheGoldenOne() {
    GoldenText.assertMatches(
        LaunchAgentHook.content(), getClass(), "golden/launch-agent-hook.expected.txt");
    assertThat(LaunchAgentHook.sha256())
        .isEqualTo("cef8051e5e9bea06be059accb7f7a002ceba589045f7eff386be19a64623a50b");
  }

  @Test
  void theTemplateTakesOnlyNamesAndNumbersForEachOfItsPlaceholders() {
    assertThat(LaunchAgentHook.fill("a=${__X__-} # __N__\n", Map.of("X", "B_1", "N", "7")))
        .isEqualTo("a=${B_1-} # 7\n");
    for (String bad : List.of("a b", "$(id)", "`id`", "x'y", "a\nb", "", "1a")) {
      assertThatThrownBy(() -> LaunchAgentHook.fill("__X__", Map.of("X", bad)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("neither a name nor a number");
    }
    assertThatThrownBy(() -> LaunchAgentHook.fill("__X__ __Y__", Map.of("X", "A")))
        .hasMessageContaining("__Y__");
    assertThatThrownBy(() -> LaunchAgentHook.fill("__X__", Map.of("X", "A", "Y", "B")))
        .hasMessageContaining("never used");
  }

  @Test
  void versionOfRejectsForeignAndMalformedHeaders() {
    assertThat(LaunchAgentHook.versionOf("#!/bin/sh\necho hi\n")).isEmpty();
    assertThat(LaunchAgentHook.versionOf("# clusterrun-launch-agent-hook version 3\n")).isEmpty();
    assertThat(LaunchAgentHook.versionOf("#!/bin/sh\n# clusterrun-launch-agent-hook version x\n"))
        .isEmpty();
    assertThat(LaunchAgentHook.versionOf("#!/bin/sh\n# clusterrun-launch-agent-hook version 7\n"))
        .hasValue(7);
    assertThat(LaunchAgentHook.versionOf("")).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("shells")
  void withoutTheVariableTheHookDoesNothing(String shell) throws Exception {
    Run r = runHook(shell, Map.of());
    assertThat(r.exit()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.environ()).isEqualTo("PATH=/usr/bin:/bin\n");
  }

  @ParameterizedTest
  @MethodSource("shells")
  void anEmptyVariableCountsAsAbsent(String shell) throws Exception {
    Run r = runHook(shell, Map.of("CLUSTERRUN_LAUNCH_AGENT", ""));
    assertThat(r.exit()).isZero();
    assertThat(r.environ()).isEqualTo("PATH=/usr/bin:/bin\n");
  }

  @ParameterizedTest
  @MethodSource("shells")
  void appendsTheAgentForOpenMpi4And5(String shell) throws Exception {
    String agent = "enroot start --rw --mount /data:/data job1 orted";
    Run r = runHook(shell, Map.of("CLUSTERRUN_LAUNCH_AGENT", agent));
    assertThat(r.exit()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.environ()).isEqualTo(agentEnviron(agent));
  }

  static Stream<Arguments> hostileAgents() {
    return shells()
        .flatMap(
            shell ->
                Stream.of(
                        "enroot start -e 'A=b c' --mount \"/x y:/z\" n orted",
                        "enroot start -e X=$(touch MARKER) n orted",
                        "enroot start -e X=`touch MARKER` n orted",
                        "a\\nb\\\\c\\0d \\ e\\",
                        "$HOME ${PATH} $$ $1 $@ %s %d %n %%",
                        "-n -e --",
                        "'; touch MARKER; echo '",
                        "\"; touch MARKER; echo \"",
                        "tab\there\rcr",
                        "ünïcødé — ok")
                    .map(agent -> Arguments.of(shell, agent)));
  }

  @ParameterizedTest
  @MethodSource("hostileAgents")
  void hostileAgentsLandVerbatim(String shell, String agent) throws Exception {
    String withMarker = agent.replace("MARKER", tmp.resolve("pwned").toString());
    Run r = runHook(shell, Map.of("CLUSTERRUN_LAUNCH_AGENT", withMarker));
    assertThat(r.exit()).isZero();
    assertThat(r.environ()).isEqualTo(agentEnviron(withMarker));
    assertThat(tmp.resolve("pwned")).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\nOMPI_MCA_x=evil", "trailing\n", "\nleading"})
  void refusesAnAgentWithANewline(String agent) throws Exception {
    for (String shell : shells().toList()) {
      Run r = runHook(shell, Map.of("CLUSTERRUN_LAUNCH_AGENT", agent));
      assertThat(r.exit()).as(shell).isNotZero();
      assertThat(r.stderr()).as(shell).contains("clusterrun").contains("newline");
      assertThat(r.environ()).as(shell).isEqualTo("PATH=/usr/bin:/bin\n");
    }
  }

  @Test
  void withoutEnrootEnvironItFailsClearly() throws Exception {
    Path hook = tmp.resolve("h.sh");
    Files.writeString(hook, LaunchAgentHook.content());
    ProcessBuilder pb = new ProcessBuilder("sh", hook.toString());
    pb.environment().clear();
    pb.environment().put("CLUSTERRUN_LAUNCH_AGENT", "x orted");
    Process p = pb.start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isNotZero();
    assertThat(err).contains("clusterrun: launch-agent hook: ENROOT_ENVIRON is not set");
  }
}
