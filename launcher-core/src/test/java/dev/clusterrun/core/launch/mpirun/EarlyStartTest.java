package dev.clusterrun.core.launch.mpirun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.launch.head.HeadProcess;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlannerTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head's container begun during the checks, its command held: with a stand-in {@code enroot}
 * that logs its start and its end (after its command, as enroot takes a container down) and runs
 * the command through the real {@code sh} of {@link EarlyStart#GATE}.
 */
class EarlyStartTest {
  @TempDir Path tmp;

  /** Words a job's command may hold: each must reach the command as it is. */
  static final List<String> WORDS =
      List.of(
          "plain",
          "",
          "two words",
          "it's",
          "say \"hi\"",
          "$(touch /tmp/clusterrun-pwned)",
          "`touch /tmp/clusterrun-pwned`",
          "$HOME",
          "line1\nline2",
          "\n",
          "a;b",
          "*",
          "~",
          "\\",
          "trailing\\",
          "x\r\ny",
          "-n",
          "exec",
          "a'b\"c$d`e\\f");

  /** A stand-in enroot: {@code start NAME CMD...}; NAME {@code missing} fails at once. */
  private Path enroot() throws Exception {
    Path f = tmp.resolve("enroot");
    if (Files.exists(f)) {
      // written once: a shell reads its script as it runs
      return f;
    }
    Files.writeString(
        f,
        String.join(
            "\n",
            "#!/bin/sh",
            "d=$(dirname \"$0\")",
            "[ \"$1\" = start ] || exit 2",
            "shift",
            "name=$1",
            "shift",
            "if [ \"$name\" = missing ]; then echo \"[ERROR] no such container: $name\" >&2; exit 1;"
                + " fi",
            "echo \"$name $EARLY_TEST\" >> \"$d/started\"",
            "echo '[WARN] said before the command' >&2",
            "\"$@\"",
            "rc=$?",
            "echo \"down $rc\" >> \"$d/ended\"",
            "exit $rc",
            ""));
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    return f;
  }

  private Path out() {
    return tmp.resolve("command.out");
  }

  /** A plan whose command writes its words (NUL-separated) to a file, then says hello. */
  private Plan plan(String name, Map<String, String> env) throws Exception {
    List<String> launch = new ArrayList<>(List.of(enroot().toString(), "start", name));
    launch.addAll(
        List.of(
            "sh", "-c", "printf '%s\\0' \"$@\" > " + out() + "; echo hello; echo oops >&2", "sh"));
    launch.addAll(WORDS);
    return Plan.builder()
        .runDir(tmp.resolve("runs/RUN").toString())
        .launch(launch)
        .launchCommandAt(3)
        .launchEnv(env)
        .prepare(List.of())
        .build();
  }

  private static List<String> nulSeparated(Path f) throws Exception {
    List<String> w =
        new ArrayList<>(
            Arrays.asList(
                new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\0", -1)));
    assertThat(w.remove(w.size() - 1)).isEmpty();
    return w;
  }

  private void awaitFile(Path f) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!Files.exists(f) && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(f).exists();
  }

  @Test
  void theCommandWaitsForTheGoThenRunsWithExactlyItsWordsAndTheStartsOutputComesFirst()
      throws Exception {
    Plan plan = plan("box", Map.of("EARLY_TEST", "env seen"));
    EarlyStart.Slot slot = new EarlyStart.Slot();
    slot.begin(plan);
    awaitFile(tmp.resolve("started"));
    assertThat(Files.readString(tmp.resolve("started"))).isEqualTo("box env seen\n");
    Thread.sleep(300);
    assertThat(out()).as("nothing runs before the go").doesNotExist();
    assertThat(tmp.resolve("ended")).doesNotExist();

    ByteArrayOutputStream so = new ByteArrayOutputStream();
    ByteArrayOutputStream se = new ByteArrayOutputStream();
    HeadProcess p = slot.go(plan, null);
    assertThat(p).isNotNull();
    var followers = p.spool().follow(so, se);
    assertThat(p.waitFor()).isZero();
    followers.finish(null);
    p.spool().close();

    assertThat(nulSeparated(out())).containsExactlyElementsOf(WORDS);
    assertThat(so.toString(StandardCharsets.UTF_8)).isEqualTo("hello\n");
    assertThat(se.toString(StandardCharsets.UTF_8))
        .isEqualTo("[WARN] said before the command\noops\n");
    assertThat(Files.readString(tmp.resolve("ended"))).isEqualTo("down 0\n");
    assertThat(Path.of("/tmp/clusterrun-pwned")).doesNotExist();
    // Taken: a second go has nothing to run.
    assertThat(slot.go(plan, null)).isNull();
  }

  @Test
  void aPlanThatStartsTheContainerOtherwiseStopsTheHeldStartWithoutRunningAnything()
      throws Exception {
    Plan held = plan("box", Map.of());
    EarlyStart.Slot slot = new EarlyStart.Slot();
    slot.begin(held);
    awaitFile(tmp.resolve("started"));
    ByteArrayOutputStream se = new ByteArrayOutputStream();

    assertThat(slot.go(plan("other", Map.of()), null)).isNull();

    // Down before go returns: its shell read the end of its input and ran nothing.
    assertThat(Files.readString(tmp.resolve("ended"))).isEqualTo("down 125\n");
    assertThat(out()).doesNotExist();
    assertThat(tmp.resolve("runs/RUN/.spool"))
        .as("the stopped start's output is not the job's: its spool is gone")
        .doesNotExist();
  }

  @Test
  void theInputFollowsTheGoLineWholeAndItsEndIsTheCommandsEndOfInput() throws Exception {
    List<String> launch = new ArrayList<>(List.of(enroot().toString(), "start", "box"));
    launch.addAll(List.of("sh", "-c", "cat; echo end", "sh"));
    Plan plan =
        Plan.builder()
            .runDir(tmp.resolve("runs/RUN").toString())
            .launch(launch)
            .launchCommandAt(3)
            .launchEnv(Map.of())
            .prepare(List.of())
            .build();
    EarlyStart.Slot slot = new EarlyStart.Slot();
    slot.begin(plan);
    awaitFile(tmp.resolve("started"));
    // A megabyte of every byte value, lines and none: the held shell takes its line and no more.
    byte[] input = new byte[1 << 20];
    new java.util.Random(7).nextBytes(input);
    ByteArrayOutputStream so = new ByteArrayOutputStream();
    HeadProcess p = slot.go(plan, new java.io.ByteArrayInputStream(input));
    assertThat(p).isNotNull();
    var followers = p.spool().follow(so, new ByteArrayOutputStream());
    assertThat(p.waitFor(Duration.ofSeconds(30))).as("ended at the input's end").isTrue();
    followers.finish(null);
    byte[] got = so.toByteArray();
    assertThat(java.util.Arrays.copyOf(got, input.length)).isEqualTo(input);
    assertThat(new String(got, input.length, got.length - input.length, StandardCharsets.UTF_8))
        .isEqualTo("end\n");
  }

  @Test
  void anotherEnvironmentDoesNotFitAndTheSameWordsDo() throws Exception {
    Plan held = plan("box", Map.of("A", "1"));
    EarlyStart e = EarlyStart.begin(held);
    try {
      assertThat(e.fits(plan("box", Map.of("A", "2")))).isFalse();
      assertThat(e.fits(plan("box", Map.of()))).isFalse();
      assertThat(e.fits(plan("other", Map.of("A", "1")))).isFalse();
      assertThat(e.fits(plan("box", Map.of("A", "1")))).isTrue();
    } finally {
      e.stop();
    }
    assertThat(Files.readString(tmp.resolve("ended"))).isEqualTo("down 125\n");
  }

  @Test
  void stoppingEndsTheWaitRunsNothingAndNoStartBeginsAfterwards() throws Exception {
    Plan plan = plan("box", Map.of());
    EarlyStart.Slot slot = new EarlyStart.Slot();
    slot.begin(plan);
    awaitFile(tmp.resolve("started"));

    slot.stop();

    assertThat(Files.readString(tmp.resolve("ended"))).isEqualTo("down 125\n");
    assertThat(out()).doesNotExist();
    assertThat(Path.of(plan.runDir()))
        .as("a start stopped before its go (checks failed) leaves no run directory")
        .doesNotExist();
    assertThat(slot.go(plan, null)).isNull();
    slot.begin(plan);
    Thread.sleep(300);
    assertThat(Files.readAllLines(tmp.resolve("started"))).hasSize(1);
  }

  @Test
  void aStartThatEndedBeforeTheGoIsNotUsedAndItsErrorIsNotTheJobs() throws Exception {
    Plan plan = plan("missing", Map.of());
    EarlyStart.Slot slot = new EarlyStart.Slot();
    slot.begin(plan);
    Thread.sleep(500);
    assertThat(slot.go(plan, null)).isNull();

    assertThat(out()).doesNotExist();
  }

  private Plan planned(String image, String name) {
    return PlannerTest.planOf(tmp.resolve("ws"), image, name);
  }

  @Test
  void onlyAContainerUsedAsItIsBeginsEarly() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    Path img = tmp.resolve("i.sqsh");

    // An image file started directly: once it is there.
    Plan direct = planned(img.toString(), null);
    assertThat(EarlyStart.startsAsIs(direct, data.toString())).isFalse();
    Files.writeString(img, "squashfs");
    assertThat(EarlyStart.startsAsIs(direct, data.toString())).isTrue();
    assertThat(EarlyStart.command(direct)).startsWith("mpirun").endsWith("hostname");
    assertThat(EarlyStart.containerWords(direct))
        .startsWith("enroot", "start")
        .endsWith(img.toString());

    // A named container without an image: once it exists in the head's data path.
    Plan named = planned(null, "mine");
    assertThat(EarlyStart.startsAsIs(named, data.toString())).isFalse();
    Files.createDirectories(data.resolve("mine"));
    assertThat(EarlyStart.startsAsIs(named, data.toString())).isTrue();
    assertThat(EarlyStart.startsAsIs(named, null)).isFalse();

    // With an image, a named container may be made again: after the checks.
    assertThat(EarlyStart.startsAsIs(planned(img.toString(), "mine"), data.toString())).isFalse();
    // An image to import: after the checks.
    assertThat(EarlyStart.startsAsIs(planned("docker://ubuntu:24.04", null), data.toString()))
        .isFalse();
  }

  @Test
  void aRegistryImageBeginsEarlyOnceItsDigestIsCached() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    String digest = "sha256:" + "ab".repeat(32);
    Plan pinned = planned("docker://registry.example#lab/mpi:1@" + digest, null);
    assertThat(pinned.squashfs()).contains(digest.substring(7));
    // Not imported yet: the import runs after the checks.
    assertThat(EarlyStart.startsAsIs(pinned, data.toString())).isFalse();
    Files.createDirectories(Path.of(pinned.squashfs()).getParent());
    Files.writeString(Path.of(pinned.squashfs()), "squashfs");
    assertThat(EarlyStart.startsAsIs(pinned, data.toString())).isTrue();
    assertThat(EarlyStart.containerWords(pinned)).endsWith(pinned.squashfs());

    // A tag not pinned to a digest: its file may hold another push of the tag.
    Plan tag = planned("docker://registry.example#lab/mpi:1", null);
    Files.createDirectories(Path.of(tag.squashfs()).getParent());
    Files.writeString(Path.of(tag.squashfs()), "squashfs");
    assertThat(EarlyStart.startsAsIs(tag, data.toString())).isFalse();
  }
}
