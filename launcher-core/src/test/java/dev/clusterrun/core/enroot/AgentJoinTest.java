package dev.clusterrun.core.enroot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.GoldenText;
import dev.clusterrun.core.enroot.EnrootArgs.ContainerFlags;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The held container's words and the agent's first step on a node ({@code agent-join.sh}), run with
 * a real shell: every case here where the join must not happen starts the container as it always
 * did (the agent's own words, run as they are). The join itself, into a container the checks began,
 * is shown on the local cluster by {@code WarmStartIT}.
 */
class AgentJoinTest {
  @TempDir Path tmp;

  Path dir;
  Path image;
  AgentJoin.Held held;

  @BeforeEach
  void aHeldContainerOfAnImageFile() throws Exception {
    dir = Files.createDirectory(tmp.resolve("clusterrun-" + uid()));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    image = Files.writeString(tmp.resolve("image.sqsh"), "not really squashfs");
    ContainerFlags flags =
        new ContainerFlags(true, false, List.of(), Map.of("OMP_NUM_THREADS", "4"));
    held = AgentJoin.held(flags, null, image.toString());
  }

  static String uid() throws Exception {
    Process p = new ProcessBuilder("id", "-u").start();
    p.waitFor(10, TimeUnit.SECONDS);
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
  }

  @Test
  void theHeldContainerHasTheAgentsStartWithoutTheRunId() {
    assertThat(held.words())
        .containsExactly(
            "env",
            "ENROOT_ROOTFS_WRITABLE=y",
            "ENROOT_REMAP_ROOT=n",
            "enroot",
            "start",
            "--rw",
            "--env",
            "OMP_NUM_THREADS=4",
            image.toString());
    // enroot start --rw --env OMP_NUM_THREADS=4 --env CLUSTERRUN_RUN_ID=ID IMAGE
    assertThat(held.count()).isEqualTo(8);
    assertThat(held.key()).matches("[0-9a-f]{16}");
    ContainerFlags other = new ContainerFlags(false, false, List.of(), Map.of());
    assertThat(AgentJoin.held(other, null, image.toString()).key()).isNotEqualTo(held.key());
  }

  @Test
  void theScriptsAreTheGoldenOnes() throws Exception {
    GoldenText.assertMatches(
        AgentJoin.script(held).replace(held.key(), "KEY"),
        getClass(),
        "golden/agent-join.expected.txt");
    GoldenText.assertMatches(
        AgentJoin.holdScript("RUN", held)
            .replace(held.key(), "KEY")
            .replace(image.toString(), "/ws/image.sqsh"),
        getClass(),
        "golden/warm-hold.expected.txt");
  }

  /** The agent's first step with the run id RUN, its words {@code echo started WORDS...}. */
  String agent(String... words) throws Exception {
    Path script = tmp.resolve(AgentJoin.FILE);
    Files.writeString(script, AgentJoin.script(new AgentJoin.Held(held.words(), 2)));
    List<String> argv = new ArrayList<>(List.of("sh", script.toString(), "echo", "started"));
    argv.addAll(List.of(words));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().put("CLUSTERRUN_RUN_ID", "RUN");
    pb.environment().put("XDG_RUNTIME_DIR", tmp.toString());
    Process p = pb.start();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** The state line a held container leaves: {@code PID KEY STAT}. */
  void heldBy(long pid, String key, String stat) throws Exception {
    Files.writeString(dir.resolve("RUN.warm"), pid + " " + key + " " + stat + "\n");
  }

  @Test
  void withNothingBegunTheAgentStartsTheContainerAsBefore() throws Exception {
    assertThat(agent(image.toString(), "orted", "-mca", "x"))
        .isEqualTo("started " + image + " orted -mca x\n");
  }

  @Test
  void aStartBegunWithOtherWordsOrEndedIsNotJoined() throws Exception {
    long me = ProcessHandle.current().pid();
    heldBy(me, "0123456789abcdef", "-");
    assertThat(agent("/no/such/image", "orted")).isEqualTo("started /no/such/image orted\n");
    // The right words, but the container's first process has ended.
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(10, TimeUnit.SECONDS);
    heldBy(gone.pid(), held.key(), "-");
    assertThat(agent("/no/such/image", "orted")).isEqualTo("started /no/such/image orted\n");
  }

  @Test
  void aProcessOutsideAnyContainerIsNeverJoined() throws Exception {
    // The right words and a live process, but in this very mount namespace: no container.
    heldBy(ProcessHandle.current().pid(), held.key(), "-");
    assertThat(agent("/no/such/image", "orted")).isEqualTo("started /no/such/image orted\n");
  }

  @Test
  void aStartUnderWayIsWaitedForWhileItsShellRuns() throws Exception {
    Process starting = new ProcessBuilder("sleep", "1").start();
    Files.writeString(dir.resolve("RUN.warm.starting"), starting.pid() + "\n");
    long t = System.nanoTime();
    assertThat(agent("/no/such/image", "orted")).isEqualTo("started /no/such/image orted\n");
    assertThat(System.nanoTime() - t).as("waited for the start").isGreaterThan(500_000_000L);
    // A start whose shell is gone is not waited for.
    t = System.nanoTime();
    agent("/no/such/image", "orted");
    assertThat(System.nanoTime() - t).isLessThan(5_000_000_000L);
  }

  @Test
  void aDirectoryAnotherUserCouldHaveMadeIsNeverRead() throws Exception {
    // A link in place of the directory: never followed.
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.delete(dir);
    Files.createSymbolicLink(dir, elsewhere);
    Process starting = new ProcessBuilder("sleep", "5").start();
    try {
      Files.writeString(elsewhere.resolve("RUN.warm.starting"), starting.pid() + "\n");
      long t = System.nanoTime();
      assertThat(agent("/no/such/image", "orted")).isEqualTo("started /no/such/image orted\n");
      assertThat(System.nanoTime() - t).as("not waited for").isLessThan(3_000_000_000L);
    } finally {
      starting.destroy();
    }
  }
}
