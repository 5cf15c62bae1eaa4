package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where {@code --container-save} may write, and the write itself. Pyxis's {@code
 * --container-save=./} once deleted a user's files (NVIDIA/pyxis#151); clusterrun never writes over
 * a directory, a symbolic link or a file it did not save itself, and never leaves a partial image
 * under the name asked for:
 *
 * <ul>
 *   <li>a directory, a symbolic link, or a path whose parent is not an existing directory, is
 *       refused;
 *   <li>an existing file is replaced only when the record clusterrun wrote beside it ({@code
 *       FILE.clusterrun-save}) still describes it (same size, time and inode): a file saved by an
 *       earlier run, untouched since;
 *   <li>the container is exported under a temporary name in the same directory, then renamed over
 *       the target, and the record is written.
 * </ul>
 *
 * <p>{@link #decide} is pure reading: {@code run} asks it before any node is touched, and the save
 * step asks again after the job, right before it writes.
 */
public final class SaveTarget {
  /** The record beside a saved image: {@code FILE} + this. */
  public static final String RECORD_SUFFIX = ".clusterrun-save";

  private SaveTarget() {}

  /** What may happen at the target. */
  public enum Kind {
    /** Nothing is there: the image is written under this name. */
    NEW,
    /** A file clusterrun saved before, unchanged since: it is replaced. */
    REPLACE_OWN,
    /** Nothing is written; {@link Decision#problem} says why. */
    REFUSED
  }

  /** The decision for one target, with the reason when refused. */
  public record Decision(Kind kind, String problem) {
    public boolean allowed() {
      return kind != Kind.REFUSED;
    }

    static Decision refused(String problem) {
      return new Decision(Kind.REFUSED, problem);
    }
  }

  /** The record that says clusterrun saved {@code target}. */
  public static Path record(Path target) {
    return target.resolveSibling(target.getFileName() + RECORD_SUFFIX);
  }

  /** The temporary name the image is exported under, beside the target. */
  public static Path temporary(Path target, String runId) {
    return target.resolveSibling("." + target.getFileName() + ".clusterrun-" + runId + ".tmp");
  }

  /**
   * Whether the image may be written at {@code target} (an absolute path), reading only.
   *
   * @return NEW, REPLACE_OWN, or REFUSED with a message fit to follow {@code --container-save: }
   */
  public static Decision decide(Path target) {
    Path parent = target.getParent();
    if (target.getFileName() == null || parent == null) {
      return Decision.refused("'" + target + "' is a directory; give the squashfs file to write");
    }
    if (!Files.isDirectory(parent)) {
      return Decision.refused(
          Files.exists(parent)
              ? "'" + parent + "' is not a directory"
              : "the directory " + parent + " does not exist; create it first");
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      if (!Files.isWritable(parent)) {
        return Decision.refused("the directory " + parent + " is not writable");
      }
      return new Decision(Kind.NEW, null);
    } catch (IOException e) {
      return Decision.refused("cannot look at '" + target + "': " + e.getMessage());
    }
    if (a.isDirectory()) {
      return Decision.refused(
          "'"
              + target
              + "' is a directory; clusterrun never writes over a directory: give the squashfs"
              + " file to write, e.g. "
              + target.resolve("container.sqsh"));
    }
    if (a.isSymbolicLink()) {
      return Decision.refused(
          "'" + target + "' is a symbolic link; clusterrun writes only a file it saved itself");
    }
    if (!a.isRegularFile()) {
      return Decision.refused("'" + target + "' exists and is not a regular file");
    }
    Map<String, String> rec = readRecord(record(target));
    if (rec == null) {
      return Decision.refused(
          "'"
              + target
              + "' exists and clusterrun did not save it (no "
              + record(target).getFileName()
              + " beside it); remove it or choose another file");
    }
    if (!describe(a).equals(subset(rec))) {
      return Decision.refused(
          "'"
              + target
              + "' has changed since clusterrun saved it (its record "
              + record(target).getFileName()
              + " no longer matches); remove it or choose another file");
    }
    if (!Files.isWritable(parent)) {
      return Decision.refused("the directory " + parent + " is not writable");
    }
    return new Decision(Kind.REPLACE_OWN, null);
  }

  /** Runs one command on the head and returns its exit code. */
  @FunctionalInterface
  public interface Runner {
    int run(List<String> argv) throws IOException, InterruptedException;
  }

  /**
   * The save step after the job: decides again, exports under {@link #temporary}, renames it over
   * the target and writes the record. When the target is a file clusterrun may not replace (it
   * appeared during the job), the image stays under its temporary name and the message says so.
   *
   * @param argv the plan's {@code enroot export --output PATH NAME}
   * @return null when saved, else what went wrong, for people
   */
  public static String save(List<String> argv, String runId, Runner runner)
      throws IOException, InterruptedException {
    Path target = Path.of(argv.get(3)).toAbsolutePath();
    Decision d = decide(target);
    // A file of someone else's that appeared during the job is left alone, but the container is
    // still exported beside it: an unnamed container is removed after the job, and its changes
    // would be lost. A directory, a link or an unusable directory gets nothing.
    boolean aside =
        !d.allowed()
            && Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
            && Files.isDirectory(target.getParent())
            && Files.isWritable(target.getParent());
    if (!d.allowed() && !aside) {
      return "container not saved: " + d.problem();
    }
    Path tmp = temporary(target, runId);
    Files.deleteIfExists(tmp);
    List<String> export = new ArrayList<>(argv);
    export.set(3, tmp.toString());
    int code = runner.run(export);
    if (code != 0) {
      Files.deleteIfExists(tmp);
      return "saving the container failed (enroot export exited " + code + ")";
    }
    // The job ran for a while: whatever appeared there meanwhile is not overwritten either.
    Decision now = decide(target);
    if (!now.allowed()) {
      return "container saved as " + tmp + " but not renamed: " + now.problem();
    }
    Path rec = record(target);
    Files.deleteIfExists(rec);
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
    BasicFileAttributes a =
        Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    StringBuilder b = new StringBuilder("# clusterrun saved this container image; do not edit\n");
    b.append("container=").append(argv.get(4)).append('\n');
    b.append("run=").append(runId).append('\n');
    describe(a).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    AtomicFiles.write(rec, b.toString());
    return null;
  }

  /** What identifies the file clusterrun wrote: its size, its time and its inode. */
  private static Map<String, String> describe(BasicFileAttributes a) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("size", Long.toString(a.size()));
    m.put("modified", Long.toString(a.lastModifiedTime().toMillis()));
    m.put("file", String.valueOf(a.fileKey()));
    return m;
  }

  private static Map<String, String> subset(Map<String, String> rec) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : List.of("size", "modified", "file")) {
      m.put(k, rec.get(k));
    }
    return m;
  }

  private static Map<String, String> readRecord(Path rec) {
    try {
      if (!Files.isRegularFile(rec, LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
      Map<String, String> m = new LinkedHashMap<>();
      for (String line : Files.readAllLines(rec, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (!line.startsWith("#") && eq > 0) {
          m.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      return m;
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }
}
