package dev.clusterrun.core.launch;

import dev.clusterrun.core.enroot.EnrootArgs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes sure the job's container exists in the shared data path, made from the job's image: imports
 * an enroot URI once into the shared workspace, creates the container once, re-creates a named
 * container whose image changed, and keeps a record of which image each named container was made
 * from. Two runs that need the same container wait for each other on a lock file in the shared
 * workspace.
 */
public final class ContainerPreparer {
  /** What was done, in words, for the run's summary. */
  public record Outcome(List<String> actions, boolean created) {}

  private final HeadCommands head;
  private final OutputStream progress;

  public ContainerPreparer(HeadCommands head, OutputStream progress) {
    this.head = head;
    this.progress = progress;
  }

  public Outcome prepare(Plan plan, String workspace)
      throws IOException, InterruptedException, PrepareException {
    List<String> actions = new ArrayList<>();
    String name = plan.containerName();
    Path state = Path.of(workspace, ".clusterrun");
    Path locks = state.resolve("locks");
    Path records = state.resolve("containers");
    Files.createDirectories(locks);
    Files.createDirectories(records);
    Path record = records.resolve(name + ".image");
    try (FileChannel ch =
            FileChannel.open(
                locks.resolve(name + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      boolean exists = containerExists(name);
      if (plan.image() == null) {
        if (!exists) {
          throw new PrepareException(
              "container "
                  + name
                  + " does not exist and the job gives no image to make it from;"
                  + " add --container-image");
        }
        actions.add("used existing container " + name);
        return new Outcome(actions, false);
      }
      String wanted = imageIdentity(plan);
      if (exists && plan.namedContainer()) {
        String had =
            Files.exists(record) ? Files.readString(record, StandardCharsets.UTF_8).strip() : null;
        if (had == null || had.equals(wanted)) {
          actions.add(
              "reused container "
                  + name
                  + (had == null ? " (made outside clusterrun; image not recorded)" : ""));
          return new Outcome(actions, false);
        }
        actions.add(
            "container " + name + " was made from " + had + "; re-creating it from " + wanted);
        mustRun(EnrootArgs.remove(name), "remove the outdated container " + name);
      } else if (exists) {
        mustRun(EnrootArgs.remove(name), "remove the stale container " + name);
      }
      for (Plan.Step s : plan.prepare()) {
        List<String> argv = s.argv();
        if (argv.size() > 1 && argv.get(1).equals("import")) {
          Path sqsh = Path.of(argv.get(3));
          if (Files.exists(sqsh)) {
            actions.add("image already imported: " + sqsh);
            continue;
          }
          Files.createDirectories(sqsh.getParent());
          // Import under a temporary name, then rename: a crash never leaves a partial image.
          Path tmp =
              sqsh.resolveSibling(sqsh.getFileName() + ".part-" + ProcessHandle.current().pid());
          Files.deleteIfExists(tmp);
          List<String> tmpArgv = new ArrayList<>(argv);
          tmpArgv.set(3, tmp.toString());
          mustRun(tmpArgv, "import " + argv.get(4));
          Files.move(
              tmp, sqsh, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          actions.add("imported " + argv.get(4) + " into " + sqsh);
        } else if (argv.size() > 1 && argv.get(1).equals("create")) {
          mustRun(argv, "create container " + name);
          actions.add("created container " + name + " from " + argv.get(argv.size() - 1));
        }
      }
      if (plan.namedContainer()) {
        dev.clusterrun.core.AtomicFiles.write(record, wanted + "\n");
      }
      return new Outcome(actions, true);
    }
  }

  /** The image and, for a squashfs file, its size and time: a rebuilt file counts as changed. */
  static String imageIdentity(Plan plan) throws IOException {
    String img = plan.image();
    if (img.contains("://")) {
      return img;
    }
    Path p = Path.of(img);
    if (!Files.exists(p)) {
      return img;
    }
    return img + " size=" + Files.size(p) + " mtime=" + Files.getLastModifiedTime(p).toMillis();
  }

  boolean containerExists(String name) throws IOException, InterruptedException, PrepareException {
    HeadCommands.Captured c = head.capture(List.of(EnrootArgs.ENROOT, "list"), Map.of());
    if (c.exitCode() != 0) {
      throw new PrepareException("enroot list failed on the head: " + firstLine(c.stderr()));
    }
    for (String line : c.stdout().split("\n")) {
      if (line.strip().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private void mustRun(List<String> argv, String what)
      throws IOException, InterruptedException, PrepareException {
    int code = head.run(argv, Map.of(), progress, progress);
    if (code != 0) {
      throw new PrepareException(
          "could not "
              + what
              + ": `"
              + dev.clusterrun.core.remote.ShellQuote.join(argv)
              + "` exited "
              + code);
    }
  }

  static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }

  /** The container could not be made ready; the message says why and names the command. */
  public static final class PrepareException extends Exception {
    private static final long serialVersionUID = 1L;

    public PrepareException(String message) {
      super(message);
    }
  }
}
