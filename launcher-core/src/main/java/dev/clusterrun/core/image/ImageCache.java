package dev.clusterrun.core.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The workspace's cache of imported images ({@code WORKSPACE/images/} on the shared filesystem),
 * keyed by manifest digest: a tag that moved is a new digest, so a new import, never the old image
 * under the tag's name. The files are listed in {@link CacheFiles}.
 *
 * <p>Contract, for every process on every node that shares the workspace:
 *
 * <ul>
 *   <li>one import per digest: {@link #acquire} imports under the digest's lock, to a temporary
 *       name renamed when complete; whoever else asks meanwhile waits (told through {@link
 *       Listener#waiting}) and then uses that import;
 *   <li>a job takes a {@link #lease} on its digest <em>before</em> {@link #acquire} and closes it
 *       when it ends: {@link #evict} and {@link #prune} never remove a leased image, nor one being
 *       imported. A lease is an fcntl lock held for the run's life; the lease of a run that died
 *       holds no lock and protects nothing.
 * </ul>
 */
public final class ImageCache {
  /** The cache's folder in the workspace. */
  public static final String DIR = "images";

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,199}");

  private final CacheFiles files;
  private final Clock clock;

  /**
   * An image the cache holds.
   *
   * @param digest {@code sha256:HEX}; null for an import from before digests ({@link #isLegacy})
   * @param references the enroot URIs it was imported for
   * @param file the squashfs file
   * @param size its size in bytes
   * @param inUse whether a running job holds a lease on it
   * @param problem why its record could not be read (its values then come from the file), or null
   */
  public record Entry(
      String digest,
      List<String> references,
      Path file,
      long size,
      Instant imported,
      Instant lastUsed,
      boolean inUse,
      String problem) {
    public Entry {
      references = List.copyOf(references);
    }

    /** Imported by reference before the cache keyed imports by digest; no lease protects it. */
    public boolean isLegacy() {
      return digest == null;
    }
  }

  /** Imports one image, e.g. {@code enroot import --output TMP docker://…@sha256:…}. */
  public interface Importer {
    /** Writes the image to {@code tmpSqsh}, which does not exist yet. */
    void importTo(Path tmpSqsh) throws IOException, InterruptedException, ImportFailed;
  }

  /** What the cache tells people while it works. */
  public interface Listener {
    /** Another run imports this digest right now: this one waits, then uses that import. */
    void waiting(String reference, String digest);

    /** An image removed by {@link #evict} to bring the cache under its limit. */
    default void evicted(Entry entry) {}
  }

  /** The import failed; the message says why and names the command. */
  public static final class ImportFailed extends Exception {
    private static final long serialVersionUID = 1L;

    public ImportFailed(String message) {
      super(message);
    }
  }

  /** What {@link #prune} removed, and what it kept because a running job uses it. */
  public record Pruned(List<Entry> removed, List<Entry> kept) {}

  /** A running job's hold on an image; {@link #close} ends it. */
  public final class Lease implements AutoCloseable {
    private final String hex;
    private final Path file;
    private final FileLocks.Held held;

    private Lease(String hex, Path file, FileLocks.Held held) {
      this.hex = hex;
      this.file = file;
      this.held = held;
    }

    /** Marks the image used now, removes the lease and releases its lock. */
    @Override
    public void close() {
      try {
        touch(hex);
        Files.deleteIfExists(file);
      } catch (IOException e) { // a lease whose lock is free is stale, whatever is left of it
      } finally {
        held.close();
      }
    }
  }

  public ImageCache(Path dir, Clock clock) {
    this.files = new CacheFiles(dir);
    this.clock = clock;
  }

  /** The cache of the workspace {@code WORKSPACE/images}. */
  public static ImageCache inWorkspace(Path workspace) {
    return new ImageCache(workspace.resolve(DIR), Clock.systemUTC());
  }

  public Path dir() {
    return files.dir();
  }

  /**
   * The file name of the digest's image in the cache, {@code sha256-HEX.sqsh}, for plans that name
   * it without touching the workspace.
   *
   * @throws IllegalArgumentException when {@code digest} is not {@code sha256:} and 64 hex digits
   */
  public static String fileName(String digest) {
    return "sha256-" + CacheFiles.hex(digest) + ".sqsh";
  }

  /** The digest in an enroot URI pinned by digest ({@code …@sha256:HEX}), or null. */
  public static String digestOf(String uri) {
    int at = uri == null ? -1 : uri.lastIndexOf("@sha256:");
    if (at < 0) {
      return null;
    }
    String d = uri.substring(at + 1);
    return d.matches("sha256:[0-9a-f]{64}") ? d : null;
  }

  /** An enroot URI without its {@code @sha256:…}: the reference the cache records imports for. */
  public static String withoutDigest(String uri) {
    return digestOf(uri) == null ? uri : uri.substring(0, uri.lastIndexOf("@sha256:"));
  }

  /**
   * Where the digest's image is (or will be): {@code images/sha256-HEX.sqsh}.
   *
   * @throws IllegalArgumentException when {@code digest} is not {@code sha256:} and 64 hex digits
   */
  public Path pathFor(String digest) {
    return files.image(CacheFiles.hex(digest));
  }

  /**
   * The digest's image, imported with {@code importer} when the cache does not hold it yet; records
   * {@code reference} among its references and marks it used now.
   */
  public Entry acquire(String digest, String reference, Importer importer, Listener listener)
      throws IOException, InterruptedException, ImportFailed {
    String hex = CacheFiles.hex(digest);
    try (FileLocks.Held lock =
        FileLocks.lock(files.lock(hex), () -> listener.waiting(reference, digest))) {
      Entry have = files.entry(hex);
      if (have != null) {
        record(have).withReference(reference).usedAt(clock.instant()).write(files.record(hex));
        return files.entry(hex);
      }
      files.removeParts(hex);
      Path sqsh = files.image(hex);
      Path tmp = sqsh.resolveSibling(sqsh.getFileName() + ".part-" + ProcessHandle.current().pid());
      try {
        importer.importTo(tmp);
        if (!Files.isRegularFile(tmp)) {
          throw new ImportFailed("the import of " + reference + " left no file " + tmp);
        }
        long size = Files.size(tmp);
        Files.move(tmp, sqsh, StandardCopyOption.ATOMIC_MOVE);
        Instant now = clock.instant();
        new CacheRecord(digest, List.of(reference), size, now, now).write(files.record(hex));
      } finally {
        Files.deleteIfExists(tmp);
      }
      return files.entry(hex);
    }
  }

  /**
   * A lease on the digest for the run {@code runId}, held until closed: take it before {@link
   * #acquire}, so that no eviction removes the image between its import and the job's start. The
   * image need not be there yet.
   *
   * @throws IllegalArgumentException for a bad digest or a run id that is not a file name
   */
  public Lease lease(String digest, String runId) throws IOException, InterruptedException {
    String hex = CacheFiles.hex(digest);
    if (runId == null || !RUN_ID.matcher(runId).matches()) {
      throw new IllegalArgumentException("'" + runId + "' is not a run id");
    }
    Path f = files.lease(hex, runId);
    for (int attempt = 0; attempt < 100; attempt++) {
      Files.createDirectories(f.getParent());
      FileLocks.Held h = FileLocks.tryLock(f, true);
      // Held and still there: a look at stale leases may have removed it just before the lock.
      if (h != null && Files.exists(f)) {
        return new Lease(hex, f, h);
      }
      if (h != null) {
        h.close();
      }
      Thread.sleep(20);
    }
    throw new IOException("could not take the lease " + f + ": its lock stays held elsewhere");
  }

  /** The newest import by digest made for {@code reference} (to run when offline, say its age). */
  public Optional<Entry> newestFor(String reference) throws IOException {
    return files.all().stream()
        .filter(e -> !e.isLegacy() && e.references().contains(reference))
        .max(Comparator.comparing(Entry::imported));
  }

  /** Every image the cache holds, imports from before digests too; most recently used first. */
  public List<Entry> list() throws IOException {
    return files.all();
  }

  /**
   * Removes the least recently used images until the cache holds at most {@code limitBytes} (or no
   * image is left that may go): never a leased one, nor one being imported.
   *
   * @return the images removed, in the order removed
   */
  public List<Entry> evict(long limitBytes, Listener listener) throws IOException {
    List<Entry> all = new ArrayList<>(files.all());
    long total = all.stream().mapToLong(Entry::size).sum();
    all.sort(Comparator.comparing(Entry::lastUsed));
    List<Entry> removed = new ArrayList<>();
    for (Entry e : all) {
      if (total <= limitBytes) {
        break;
      }
      if (!e.inUse() && remove(e)) {
        total -= e.size();
        removed.add(e);
        listener.evicted(e);
      }
    }
    return removed;
  }

  /**
   * Removes the images not used within {@code olderThan}, or every image ({@code all}); leased
   * images and those being imported are kept and reported.
   */
  public Pruned prune(Duration olderThan, boolean all) throws IOException {
    if (!all && olderThan == null) {
      throw new IllegalArgumentException("prune needs an age or all");
    }
    Instant cut = all ? null : clock.instant().minus(olderThan);
    List<Entry> removed = new ArrayList<>();
    List<Entry> kept = new ArrayList<>();
    for (Entry e : files.all()) {
      if (cut != null && !e.lastUsed().isBefore(cut)) {
        continue;
      }
      if (!e.inUse() && remove(e)) {
        removed.add(e);
      } else {
        kept.add(e);
      }
    }
    return new Pruned(removed, kept);
  }

  /**
   * Removes an image under its digest's lock, after looking at its leases once more: false when it
   * is being imported, removed by another process, or leased.
   */
  private boolean remove(Entry e) throws IOException {
    if (e.isLegacy()) {
      files.delete(e);
      return true;
    }
    String hex = CacheFiles.hex(e.digest());
    try (FileLocks.Held lock = FileLocks.tryLock(files.lock(hex), true)) {
      if (lock == null || files.leased(hex) || !Files.exists(e.file())) {
        return false;
      }
      files.delete(e);
      return true;
    }
  }

  /** Marks the digest's image used now, unless someone holds its lock (then it is in use). */
  private void touch(String hex) throws IOException {
    try (FileLocks.Held lock = FileLocks.tryLock(files.lock(hex), true)) {
      Entry e = lock == null ? null : files.entry(hex);
      if (e != null) {
        record(e).usedAt(clock.instant()).write(files.record(hex));
      }
    }
  }

  private static CacheRecord record(Entry e) {
    return new CacheRecord(e.digest(), e.references(), e.size(), e.imported(), e.lastUsed());
  }
}
