package dev.clusterrun.core.jobs;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.cleanup.Lifeline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code clusterrun logs}: a run's output from its run directory, as the run kept it: {@code
 * stdout.log} to standard output and {@code stderr.log} to standard error (mpirun), or every node's
 * {@code NODE.stdout.log} and {@code NODE.stderr.log} with each line labelled {@code NODE: }
 * (per-node). Following, it prints what the files gain, as {@code tail -f} does, until the run's
 * {@code summary.json} appears (the run has ended), then what the files hold by then.
 */
public final class RunLogs {
  /** Waits between two looks at the files while following. */
  @FunctionalInterface
  public interface Pause {
    Pause REAL = () -> Thread.sleep(200);

    void pause() throws InterruptedException;
  }

  /**
   * @param workspace the workspace ({@link dev.clusterrun.core.WorkspaceDir#path})
   * @param runId the run id as {@code run} printed it
   * @param follow follow the files until the run ends
   */
  public record Request(Path workspace, String runId, boolean follow) {}

  private final OutputStream out;
  private final OutputStream err;
  private final Pause pause;
  private final Map<Path, Source> sources = new LinkedHashMap<>();

  public RunLogs(OutputStream out, OutputStream err, Pause pause) {
    this.out = out;
    this.err = err;
    this.pause = pause;
  }

  /** One file being copied: how far it was read, and a line begun but not yet ended. */
  private static final class Source {
    final OutputStream to;
    final byte[] label;
    long offset;
    final ByteArrayOutputStream partial = new ByteArrayOutputStream();

    Source(OutputStream to, String label) {
      this.to = to;
      this.label = label == null ? null : label.getBytes(StandardCharsets.UTF_8);
    }
  }

  /**
   * Copies the run's output; returns the run directory it was in.
   *
   * @throws BadInputException naming the run id when the workspace has no run of it
   * @throws InterruptedException when interrupted while following
   */
  public LogsOutcome show(Request rq) throws IOException, InterruptedException {
    Path dir = RunDirectories.find(rq.workspace(), rq.runId());
    if (dir == null) {
      throw new BadInputException(
          rq.runId(), "no run of that id in the workspace " + rq.workspace().resolve("runs"));
    }
    while (true) {
      boolean ended = RunDirectories.ended(dir);
      copyNew(dir, ended || !rq.follow());
      if (ended || !rq.follow()) {
        stoppedByItsWatchers(dir, rq.runId());
        return new LogsOutcome(dir);
      }
      pause.pause();
    }
  }

  /**
   * After the output of a run whose clusterrun was killed (no {@code summary.json}, a watcher's
   * record): a line on standard error saying so and where the records are.
   */
  private void stoppedByItsWatchers(Path dir, String runId) throws IOException {
    List<Path> records = Lifeline.recordsOfAStoppedRun(dir);
    if (Files.exists(dir.resolve("summary.json")) || records.isEmpty()) {
      return;
    }
    List<String> names = records.stream().map(p -> p.getFileName().toString()).toList();
    err.write(
        ("clusterrun: "
                + runId
                + ": the clusterrun that ran it ended without ending it (SIGKILL, the OOM killer,"
                + " a lost session); "
                + (names.size() == 1
                    ? "its watcher stopped the job and wrote what it stopped in "
                    : "its watchers stopped the job and wrote what they stopped in ")
                + String.join(", ", names)
                + " ("
                + dir
                + ")\n")
            .getBytes(StandardCharsets.UTF_8));
    err.flush();
  }

  /** Copies what every log file of the run gained; {@code last}: lines left unended go too. */
  private void copyNew(Path dir, boolean last) throws IOException {
    for (Path f : logFiles(dir)) {
      String name = f.getFileName().toString();
      Source s =
          sources.computeIfAbsent(
              f,
              k ->
                  new Source(
                      name.endsWith("stderr.log") ? err : out,
                      name.equals("stdout.log") || name.equals("stderr.log")
                          ? null
                          : name.substring(0, name.length() - ".stdout.log".length()) + ": "));
      copy(f, s);
      if (last && s.label != null && s.partial.size() > 0) {
        s.to.write(s.label);
        s.partial.writeTo(s.to);
        s.to.write('\n');
        s.partial.reset();
      }
      s.to.flush();
    }
  }

  /** The run's log files: the mpirun launcher's two, then every node's, by name. */
  static List<Path> logFiles(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    for (String n : List.of("stdout.log", "stderr.log")) {
      if (Files.isRegularFile(dir.resolve(n))) {
        files.add(dir.resolve(n));
      }
    }
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(
              p -> {
                String n = p.getFileName().toString();
                return (n.endsWith(".stdout.log") || n.endsWith(".stderr.log"))
                    && Files.isRegularFile(p);
              })
          .sorted()
          .forEach(files::add);
    }
    return files;
  }

  private static void copy(Path f, Source s) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
      long len = raf.length();
      if (len < s.offset) {
        s.offset = 0; // the file was rewritten
      }
      raf.seek(s.offset);
      byte[] buf = new byte[8192];
      int n;
      while (s.offset < len && (n = raf.read(buf)) > 0) {
        s.offset += n;
        if (s.label == null) {
          s.to.write(buf, 0, n);
        } else {
          labelled(buf, n, s);
        }
      }
    }
  }

  /** Writes every whole line with its label; keeps the unended rest for later. */
  private static void labelled(byte[] buf, int n, Source s) throws IOException {
    int from = 0;
    for (int i = 0; i < n; i++) {
      if (buf[i] == '\n') {
        s.to.write(s.label);
        s.partial.writeTo(s.to);
        s.partial.reset();
        s.to.write(buf, from, i - from + 1);
        from = i + 1;
      }
    }
    s.partial.write(buf, from, n - from);
  }
}
