package dev.clusterrun.core.launch.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ranks' own output files ({@link JobIo}), followed as Open MPI writes them and passed on as
 * whole lines, each prefixed with its rank's label ({@code NODE:RANK: }), standard output to {@code
 * out} and standard error to {@code err}. Each file has one writer (the daemon of its rank's node),
 * so a line is never mixed with another rank's; lines of different ranks come out whole, in the
 * order they are found.
 *
 * <p>The layouts: Open MPI 4 ({@code --output-filename DIR:nojobid}) writes {@code
 * DIR/rank.N/stdout} and {@code stderr}; Open MPI 5 ({@code --output dir=DIR,:raw}) writes {@code
 * DIR/NSPACE/rank.N/stdout} and {@code stderr}, the rank zero-padded in both. Called from one
 * thread (the launcher's wait loop): {@link #poll} while mpirun runs, {@link #finish} once it
 * ended.
 */
public final class RankOutput {
  private static final Pattern RANK_DIR = Pattern.compile("rank\\.(\\d{1,9})");

  /** How often the directory is listed again for ranks and files not seen yet. */
  private static final long LIST_EVERY_NANOS = 500_000_000L;

  private final Path dir;
  private final IntFunction<String> label;
  private final OutputStream out;
  private final OutputStream err;
  private final Map<Path, Followed> files = new TreeMap<>();
  private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
  private long listedAt = Long.MIN_VALUE;

  /**
   * @param dir the directory Open MPI writes the ranks' files into (as the head sees it)
   * @param label the label of a rank's lines ({@code node2:3}), or null for none
   */
  public RankOutput(Path dir, IntFunction<String> label, OutputStream out, OutputStream err) {
    this.dir = dir;
    this.label = label;
    this.out = out;
    this.err = err;
  }

  /** One file followed: where its next byte is, and its lines' stream. */
  private static final class Followed {
    final LineLabels lines;
    FileChannel channel;
    long position;

    Followed(LineLabels lines) {
      this.lines = lines;
    }
  }

  /** Passes on what the files hold beyond what was passed on; new files are found now and then. */
  public void poll() throws IOException {
    long now = System.nanoTime();
    if (now - listedAt >= LIST_EVERY_NANOS || listedAt == Long.MIN_VALUE) {
      listedAt = now;
      discover();
    }
    for (Followed f : files.values()) {
      if (f.channel != null) {
        read(f);
      }
    }
  }

  /**
   * After mpirun ended: every file read to its end, opened anew (a network filesystem shows what
   * another node wrote once the file is opened after the writer closed it), and each stream's last
   * line, if unfinished, passed on with a newline.
   */
  public void finish() throws IOException {
    discover();
    for (Map.Entry<Path, Followed> e : files.entrySet()) {
      Followed f = e.getValue();
      if (f.channel != null) {
        f.channel.close();
      }
      f.channel = open(e.getKey());
      if (f.channel != null) {
        read(f);
        f.channel.close();
        f.channel = null;
      }
      f.lines.close();
    }
  }

  /** Closes what is still open, without passing anything on. */
  public void close() {
    for (Followed f : files.values()) {
      if (f.channel != null) {
        try {
          f.channel.close();
        } catch (IOException e) {
          // nothing more to read from it
        }
      }
    }
  }

  private void read(Followed f) throws IOException {
    while (true) {
      buf.clear();
      int n = f.channel.read(buf, f.position);
      if (n <= 0) {
        return;
      }
      f.position += n;
      f.lines.write(buf.array(), 0, n);
    }
  }

  private void discover() throws IOException {
    for (Path rankDir : rankDirs()) {
      Matcher m = RANK_DIR.matcher(rankDir.getFileName().toString());
      if (!m.matches()) {
        continue;
      }
      int rank = Integer.parseInt(m.group(1));
      for (String stream : List.of("stdout", "stderr")) {
        Path file = rankDir.resolve(stream);
        Followed f = files.get(file);
        if (f == null && Files.isRegularFile(file)) {
          String l = label == null ? null : label.apply(rank);
          f = new Followed(new LineLabels(stream.equals("stdout") ? out : err, l));
          files.put(file, f);
        }
        if (f != null && f.channel == null && f.position == 0) {
          f.channel = open(file);
        }
      }
    }
  }

  /** The rank directories: {@code DIR/rank.N} and {@code DIR/NSPACE/rank.N}. */
  private List<Path> rankDirs() throws IOException {
    List<Path> found = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return found;
    }
    try (Stream<Path> top = Files.list(dir)) {
      for (Path p : top.toList()) {
        if (!Files.isDirectory(p)) {
          continue;
        }
        if (RANK_DIR.matcher(p.getFileName().toString()).matches()) {
          found.add(p);
        } else {
          try (Stream<Path> inner = Files.list(p)) {
            inner
                .filter(q -> RANK_DIR.matcher(q.getFileName().toString()).matches())
                .forEach(found::add);
          }
        }
      }
    }
    return found;
  }

  private static FileChannel open(Path file) {
    try {
      return FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      return null; // not there (yet): looked for again
    }
  }
}
