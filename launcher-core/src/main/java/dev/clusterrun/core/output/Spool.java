package dev.clusterrun.core.output;

import dev.clusterrun.core.remote.ShellScript;
import dev.clusterrun.core.session.Follower;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Two regular files a process on the head writes its standard output and error to, instead of
 * pipes, and the {@link Follower}s that pass them on while it runs.
 *
 * <p>Why files: Open MPI's mpirun (ORTE in Open MPI 4, PRRTE and PMIx in 5) sets its output
 * non-blocking, queues what the reader does not take at once, and when it ends makes one last
 * attempt to write the queue: a short write (a full pipe) drops the rest, silently, with exit 0. A
 * reader that is slower than the ranks for a moment (clusterrun copying to a slow terminal and to
 * the logs) made that happen. A regular file never takes less than it is given, so mpirun's every
 * byte is on disk when it ends, whatever the reader does; the reader (the terminal, a pipe into
 * another program) may lag behind and is caught up before clusterrun ends.
 *
 * <p>The files live in a directory of their own, mode 700, removed by {@link #close}.
 */
public final class Spool implements AutoCloseable {
  /** What starts the command with its output in the two files ({@code spool.sh}). */
  static final String WRAPPER = ShellScript.code(Spool.class, "spool.sh");

  private final Path dir;
  private final Path out;
  private final Path err;

  private Spool(Path dir) {
    this.dir = dir;
    this.out = dir.resolve("stdout");
    this.err = dir.resolve("stderr");
  }

  /**
   * A new spool in {@code dir} (made, mode 700; its parents as needed), its two files empty.
   *
   * @throws IOException when the directory or its files cannot be made
   */
  public static Spool create(Path dir) throws IOException {
    Files.createDirectories(dir.getParent());
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Spool s = new Spool(dir);
    Files.createFile(s.out);
    Files.createFile(s.err);
    return s;
  }

  /**
   * {@code argv} started through the wrapper that puts its output in the two files: the same
   * process (the wrapper {@code exec}s it), the same process id.
   */
  public List<String> wrap(List<String> argv) {
    List<String> w = new ArrayList<>(List.of("/bin/sh", "-c", WRAPPER, "sh"));
    w.add(out.toString());
    w.add(err.toString());
    w.addAll(argv);
    return w;
  }

  /** The spool's directory. */
  public Path dir() {
    return dir;
  }

  /** Followers of both files, from their first byte, to {@code toOut} and {@code toErr}. */
  public Follower.Pair follow(OutputStream toOut, OutputStream toErr) {
    return new Follower.Pair(
        Follower.start(out, toOut, "stdout"), Follower.start(err, toErr, "stderr"));
  }

  /** Removes the files and the directory (and its parent when that is left empty). */
  @Override
  public void close() {
    for (Path p : List.of(out, err, dir)) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // left behind: harmless, and in the run's own directory
      }
    }
    try {
      Files.deleteIfExists(dir.getParent());
    } catch (DirectoryNotEmptyException e) {
      // another spool of the run
    } catch (IOException e) {
      // left behind
    }
  }
}
