package dev.clusterrun.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLogsTest {
  static final String ID = "20261127-040000-train-ab12";
  @TempDir Path ws;
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  Path runDir() throws Exception {
    return Files.createDirectories(ws.resolve("runs").resolve(ID));
  }

  static void append(Path f, String text) throws Exception {
    Files.writeString(f, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Logs to {@code out} and {@code err} that fail the test with {@code why} if they pause. */
  private RunLogs neverPausing(String why) {
    return new RunLogs(
        out,
        err,
        () -> {
          throw new AssertionError(why);
        });
  }

  @Test
  void showsStdoutAndStderrAsTheRunKeptThem() throws Exception {
    Path d = runDir();
    append(d.resolve("stdout.log"), "rank 0 up\nrank 1 up\n");
    append(d.resolve("stderr.log"), "warning: slow\n");
    LogsOutcome shown =
        neverPausing("no pause without -f").show(new RunLogs.Request(ws, ID, false));
    assertThat(shown.runDir()).isEqualTo(d);
    assertThat(shown.exitCode()).isZero();
    assertThat(out()).isEqualTo("rank 0 up\nrank 1 up\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("warning: slow\n");
  }

  @Test
  void followingPrintsWhatTheFilesGainAndStopsWhenSummaryJsonAppears() throws Exception {
    Path d = runDir();
    Path log = d.resolve("stdout.log");
    append(log, "tick 0\n");
    AtomicInteger pauses = new AtomicInteger();
    StringBuilder seenAtPause = new StringBuilder();
    RunLogs.Pause run =
        () -> {
          int n = pauses.incrementAndGet();
          seenAtPause.append(n).append(':').append(out().split("\n").length).append(' ');
          try {
            if (n <= 3) {
              append(log, "tick " + n + "\n");
            } else {
              append(log, "last line\n");
              append(d.resolve("summary.json"), "{}\n");
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    new RunLogs(out, err, run).show(new RunLogs.Request(ws, ID, true));
    assertThat(out()).isEqualTo("tick 0\ntick 1\ntick 2\ntick 3\nlast line\n");
    assertThat(pauses.get()).isEqualTo(4);
    // Each line was out before the next was written: followed, not read at the end.
    assertThat(seenAtPause.toString().trim()).isEqualTo("1:1 2:2 3:3 4:4");
  }

  @Test
  void aRunThatHasEndedIsShownOnceEvenWhenFollowed() throws Exception {
    Path d = runDir();
    append(d.resolve("stdout.log"), "done\n");
    append(d.resolve("summary.json"), "{}\n");
    neverPausing("an ended run is not followed").show(new RunLogs.Request(ws, ID, true));
    assertThat(out()).isEqualTo("done\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).as("nothing said of watchers").isEmpty();
  }

  @Test
  void perNodeFilesAreLabelledLineByLineEvenWhenALineArrivesInPieces() throws Exception {
    Path d = runDir();
    append(d.resolve("node1.stdout.log"), "a\nhalf");
    append(d.resolve("node2.stdout.log"), "b\n");
    append(d.resolve("node2.stderr.log"), "oops\n");
    AtomicInteger pauses = new AtomicInteger();
    new RunLogs(
            out,
            err,
            () -> {
              pauses.incrementAndGet();
              try {
                append(d.resolve("node1.stdout.log"), " line\nend");
                append(d.resolve("summary.json"), "{}\n");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            })
        .show(new RunLogs.Request(ws, ID, true));
    assertThat(out()).isEqualTo("node1: a\nnode2: b\nnode1: half line\nnode1: end\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("node2: oops\n");
  }

  @Test
  void anUnknownRunIsBadInputNamingIt() {
    assertThatThrownBy(
            () ->
                new RunLogs(out, err, RunLogs.Pause.REAL)
                    .show(new RunLogs.Request(ws, "20200101-000000-nope-beef", false)))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("20200101-000000-nope-beef")
        .hasMessageContaining("no run of that id");
  }

  /**
   * A killed clusterrun writes no summary: following ends when its watcher's record is finished,
   * and says so; an unfinished record (the watcher still at work) is followed on.
   */
  @Test
  void followingAKilledRunEndsWhenItsWatcherRecordedThatItStoppedTheJob() throws Exception {
    Path d = runDir();
    append(d.resolve("stdout.log"), "tick 0\n");
    Path record = d.resolve("lifeline-node1.log");
    Path node2 = d.resolve("lifeline-node2.log");
    AtomicInteger pauses = new AtomicInteger();
    RunLogs.Pause watcher =
        () -> {
          try {
            if (pauses.incrementAndGet() == 1) {
              // Another node's finished record alone ends nothing: it may be a lost connection.
              append(node2, "T watcher on node2, its connection from clusterrun ended (...)\n");
              append(node2, "T watcher on node2: done\n");
              append(
                  record,
                  "2026-11-27T20:00:00Z watcher on node1, the head: clusterrun ended without"
                      + " ending the run; stopping its processes\n");
              append(record, "leftover 4242 sleep 120 \n");
            } else {
              append(record, "2026-11-27T20:00:04Z watcher on node1: done\n");
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    new RunLogs(out, err, watcher).show(new RunLogs.Request(ws, ID, true));
    assertThat(pauses.get()).as("followed on while the record was unfinished").isEqualTo(2);
    assertThat(out()).isEqualTo("tick 0\n");
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "clusterrun: "
                + ID
                + ": the clusterrun that ran it ended without ending it (SIGKILL, the OOM killer, a"
                + " lost session); its watchers stopped the job and wrote what they stopped in"
                + " lifeline-node1.log, lifeline-node2.log ("
                + d
                + ")\n");
    assertThat(RunDirectories.ended(d)).isTrue();
  }
}
