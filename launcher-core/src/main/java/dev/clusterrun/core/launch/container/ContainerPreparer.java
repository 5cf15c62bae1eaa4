package dev.clusterrun.core.launch.container;

import dev.clusterrun.core.enroot.EnrootArgs;
import dev.clusterrun.core.image.ImageCache;
import dev.clusterrun.core.launch.head.HeadCommands;
import dev.clusterrun.core.launch.job.ResolvedJob;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.spec.ImageRef;
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
  /**
   * What was done, in words, for the run's summary.
   *
   * @param importSeconds how long the import of the image took, or -1 when none was made
   */
  public record Prepared(List<String> actions, boolean created, double importSeconds) {
    Prepared(List<String> actions, boolean created) {
      this(actions, created, -1);
    }
  }

  private final HeadCommands head;
  private final OutputStream progress;
  private String dataPath;
  private String runId;
  private long cacheLimit = -1;
  private ImageCache.Lease lease;
  private double importSeconds = -1;

  public ContainerPreparer(HeadCommands head, OutputStream progress) {
    this.head = head;
    this.progress = progress;
  }

  /**
   * The head's ENROOT_DATA_PATH as its facts read it (null when not known): a container whose
   * directory is there exists without asking {@code enroot list}.
   */
  public ContainerPreparer dataPath(String path) {
    this.dataPath = path;
    return this;
  }

  /**
   * The run that uses the image: it holds a lease on the cached image until {@link #release}, so no
   * eviction removes it while the job runs.
   */
  public ContainerPreparer forRun(String id) {
    this.runId = id;
    return this;
  }

  /** The image cache's size limit: past it, least recently used images not in use are removed. */
  public ContainerPreparer cacheLimit(long bytes) {
    this.cacheLimit = bytes;
    return this;
  }

  /** Ends the run's lease on its image (the job is over). */
  public void release() {
    ImageCache.Lease l = lease;
    lease = null;
    if (l != null) {
      l.close();
    }
  }

  public Prepared prepare(Plan plan, String workspace)
      throws IOException, InterruptedException, PrepareException {
    Prepared p = prepareContainer(plan, workspace);
    return new Prepared(p.actions(), p.created(), importSeconds);
  }

  /**
   * The job is over: when it could write into its named container ({@code --container-writable}),
   * the container's snapshot is taken again next time ({@link ContainerSnapshot#finished}).
   */
  public void finished(Plan plan, String workspace) throws IOException {
    ContainerSnapshot.finished(plan, Path.of(workspace));
  }

  private Prepared prepareContainer(Plan plan, String workspace)
      throws IOException, InterruptedException, PrepareException {
    List<String> actions = new ArrayList<>();
    String name = plan.containerName();
    Path state = Path.of(workspace, ".clusterrun");
    Path locks = state.resolve("locks");
    if (plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.START_IMAGE)) {
      return startsImage(plan, locks, actions);
    }
    Path record = containerRecord(Path.of(workspace), name);
    Files.createDirectories(locks);
    Files.createDirectories(record.getParent());
    try (FileChannel ch =
            FileChannel.open(
                locks.resolve(name + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      Prepared made = makeContainer(plan, Path.of(workspace), record, actions);
      if (ContainerSnapshot.planned(plan)) {
        ContainerSnapshot.Head h =
            new ContainerSnapshot.Head() {
              @Override
              public void mustRun(List<String> argv, String what)
                  throws IOException, InterruptedException, PrepareException {
                ContainerPreparer.this.mustRun(argv, what);
              }

              @Override
              public void say(String line) {
                ContainerPreparer.this.say(line);
              }
            };
        ContainerSnapshot.take(
            h, Path.of(workspace), name, readRecord(record), made.created(), actions);
      }
      return made;
    }
  }

  /** The named or run's container made ready; runs under the container's lock. */
  private Prepared makeContainer(Plan plan, Path workspace, Path record, List<String> actions)
      throws IOException, InterruptedException, PrepareException {
    String name = plan.containerName();
    {
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
        return new Prepared(actions, false);
      }
      String had = readRecord(record);
      if (exists && plan.namedContainer() && plan.imageOnlyIfMissing()) {
        // Pyxis's habit: a named container that exists is taken as given.
        actions.add(
            "used existing container "
                + name
                + " as it is ("
                + (had == null ? "made outside clusterrun" : "made from " + had)
                + "); no image was given, so "
                + plan.image()
                + " would only make it if it were missing");
        return new Prepared(actions, false);
      }
      String wanted = imageIdentity(plan);
      if (exists && plan.namedContainer()) {
        if (had == null || had.equals(wanted)) {
          actions.add(
              "reused container "
                  + name
                  + (had == null ? " (made outside clusterrun; image not recorded)" : ""));
          return new Prepared(actions, false);
        }
        actions.add(
            "container " + name + " was made from " + had + "; re-creating it from " + wanted);
        mustRun(EnrootArgs.remove(name), "remove the outdated container " + name);
      } else if (exists) {
        mustRun(EnrootArgs.remove(name), "remove the stale container " + name);
      }
      for (Plan.Step s : plan.prepare()) {
        switch (s.action()) {
          case IMPORT -> importOnce(plan.image(), Path.of(plan.squashfs()), actions);
          case CREATE -> {
            mustRun(s.argv(), "create container " + name);
            actions.add("created container " + name + " from " + plan.squashfs());
          }
          default -> {}
        }
      }
      if (plan.namedContainer()) {
        dev.clusterrun.core.AtomicFiles.write(record, wanted + "\n");
      }
      return new Prepared(actions, true);
    }
  }

  /**
   * An image started directly: imported once if it is a URI (two runs importing the same image wait
   * for each other), else it must be there; no container is made.
   */
  private Prepared startsImage(Plan plan, Path locks, List<String> actions)
      throws IOException, InterruptedException, PrepareException {
    Path sqsh = Path.of(plan.squashfs());
    if (plan.prepare().stream().anyMatch(s -> s.action() == Plan.Step.Action.IMPORT)) {
      Files.createDirectories(locks);
      try (FileChannel ch =
              FileChannel.open(
                  locks.resolve(sqsh.getFileName() + ".lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        importOnce(plan.image(), sqsh, actions);
      }
    }
    if (!Files.isRegularFile(sqsh) || !Files.isReadable(sqsh)) {
      throw new PrepareException("image " + sqsh + " is not a readable file");
    }
    actions.add("starting the image " + sqsh + " directly on every node (nothing unpacked)");
    return new Prepared(actions, false);
  }

  /**
   * {@code enroot import --output SQSH URI}, unless SQSH exists and its image record says it holds
   * exactly URI. A file without a record, or with another URI in it, is imported again: one image
   * never runs as another.
   */
  private void importOnce(String uri, Path sqsh, List<String> actions)
      throws IOException, InterruptedException, PrepareException {
    String digest = ImageCache.digestOf(uri);
    if (digest != null && sqsh.getFileName().toString().equals(ImageCache.fileName(digest))) {
      importByDigest(uri, digest, sqsh, actions);
      return;
    }
    Path rec = imageRecord(sqsh);
    if (Files.exists(sqsh)) {
      String held = readRecord(rec);
      if (uri.equals(held)) {
        actions.add("image already imported: " + sqsh + " (" + uri + ")");
        return;
      }
      actions.add(
          sqsh
              + (held == null ? " has no image record" : " holds " + held)
              + "; importing "
              + uri
              + " again");
    }
    Files.createDirectories(sqsh.getParent());
    // Import under a temporary name, then rename: a crash never leaves a partial image. The record
    // goes first, so no moment pairs a new file with an old record.
    Path tmp = sqsh.resolveSibling(sqsh.getFileName() + ".part-" + ProcessHandle.current().pid());
    Files.deleteIfExists(tmp);
    mustRun(
        EnrootArgs.importImage(new ImageRef(ImageRef.Kind.URI, uri), tmp.toString()),
        "import " + uri);
    Files.deleteIfExists(rec);
    Files.move(tmp, sqsh, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    dev.clusterrun.core.AtomicFiles.write(rec, uri + "\n");
    actions.add("imported " + uri + " into " + sqsh);
  }

  /**
   * The image of {@code digest} from the workspace's cache, imported ({@code enroot import} of the
   * pinned URI) only when no run did before; another run importing it now is waited for. The run
   * takes its lease first, so that no eviction removes the image before the job is over; then the
   * cache is brought under its limit.
   */
  private void importByDigest(String uri, String digest, Path sqsh, List<String> actions)
      throws IOException, InterruptedException, PrepareException {
    ImageCache cache = new ImageCache(sqsh.getParent(), java.time.Clock.systemUTC());
    String reference = ImageCache.withoutDigest(uri);
    if (runId != null && lease == null) {
      lease = cache.lease(digest, runId);
    }
    ImageCache.Listener listener =
        new ImageCache.Listener() {
          @Override
          public void waiting(String ref, String d) {
            say("another run is importing " + ref + " (" + d + "): waiting for it");
          }

          @Override
          public void evicted(ImageCache.Entry e) {
            actions.add("removed from the image cache (least recently used): " + describe(e));
          }
        };
    boolean[] imported = {false};
    long t = System.nanoTime();
    try {
      cache.acquire(
          digest,
          reference,
          tmp -> {
            imported[0] = true;
            say("importing " + uri + " into " + sqsh);
            try {
              mustRun(
                  EnrootArgs.importImage(new ImageRef(ImageRef.Kind.URI, uri), tmp.toString()),
                  "import " + uri);
            } catch (PrepareException e) {
              throw new ImageCache.ImportFailed(e.getMessage());
            }
          },
          listener);
    } catch (ImageCache.ImportFailed e) {
      throw new PrepareException(e.getMessage());
    }
    if (imported[0]) {
      importSeconds = (System.nanoTime() - t) / 1e9;
      actions.add(
          "imported "
              + uri
              + " into "
              + sqsh
              + String.format(java.util.Locale.ROOT, " in %.1f s", importSeconds));
    } else {
      actions.add(
          "image already imported: "
              + cache.pathFor(digest)
              + " ("
              + digest
              + ", "
              + reference
              + ")");
    }
    if (cacheLimit >= 0) {
      cache.evict(cacheLimit, listener);
    }
  }

  private static String describe(ImageCache.Entry e) {
    return (e.references().isEmpty() ? e.file().toString() : String.join(", ", e.references()))
        + (e.digest() == null ? "" : " (" + e.digest() + ")")
        + ", "
        + (e.size() >> 20)
        + " MiB";
  }

  private void say(String line) {
    try {
      progress.write(("clusterrun: " + line + "\n").getBytes(StandardCharsets.UTF_8));
      progress.flush();
    } catch (IOException e) {
      // the terminal is gone; the run goes on
    }
  }

  /** The record beside an imported image: the exact URI it was imported from. */
  public static Path imageRecord(Path sqsh) {
    return sqsh.resolveSibling(sqsh.getFileName() + ".uri");
  }

  /** The record of the image a named container was made from. */
  public static Path containerRecord(Path workspace, String name) {
    return workspace.resolve(".clusterrun").resolve("containers").resolve(name + ".image");
  }

  /**
   * The image a named container was made from, as clusterrun recorded it (a URI, or a squashfs path
   * without its size and time), or null when there is no record.
   */
  public static String recordedImage(Path workspace, String name) {
    String r;
    try {
      r = readRecord(containerRecord(workspace, name));
    } catch (IOException e) {
      return null;
    }
    if (r == null) {
      return null;
    }
    int meta = r.indexOf(" size=");
    return meta < 0 ? r : r.substring(0, meta);
  }

  /**
   * The image a run used, for its result: the one the user gave, else what the named container was
   * made from (its record), else the preset's image unless the user named the container (then it is
   * {@code container NAME}: taken as given, made from something clusterrun did not see).
   *
   * @param image the plan's image (null when none)
   */
  public static String imageOfRun(ResolvedJob job, String image, String container) {
    if (image != null && job.image().source() != Source.DEFAULT) {
      return image;
    }
    String held = recordedImage(Path.of(job.workspacePath().value()), container);
    if (held != null) {
      return held;
    }
    boolean named = job.containerName().source() != Source.DEFAULT;
    return image != null && !named ? image : "container " + container;
  }

  /**
   * The plan, saying what its named container holds as far as this machine (the head) knows: the
   * image record, or that it is unknown. Reads one file; runs nothing.
   */
  public static Plan lookUp(Plan plan, String workspace) {
    if (!plan.namedContainer()) {
      return plan;
    }
    Path ws = Path.of(workspace);
    String holds;
    if (!Files.isDirectory(ws)) {
      holds = "unknown here: the workspace " + workspace + " is not on this machine";
    } else {
      String r = recordedImage(ws, plan.containerName());
      holds =
          r == null
              ? "unknown: made outside clusterrun (or not made yet)"
              : r + " (clusterrun's record of what made it)";
    }
    return plan.withContainerHolds(holds);
  }

  private static String readRecord(Path record) throws IOException {
    if (!Files.isRegularFile(record)) {
      return null;
    }
    String s = Files.readString(record, StandardCharsets.UTF_8).strip();
    return s.isEmpty() ? null : s;
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
    // enroot keeps a container as the directory NAME in its data path (what `enroot list` lists):
    // seen there, it exists; not seen, enroot itself is asked (the facts may not be enroot's view).
    if (dataPath != null
        && dataPath.startsWith("/")
        && !name.isEmpty()
        && !name.contains("/")
        && Files.isDirectory(Path.of(dataPath, name))) {
      return true;
    }
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

  public static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
