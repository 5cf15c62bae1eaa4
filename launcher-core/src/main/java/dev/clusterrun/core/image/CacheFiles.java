package dev.clusterrun.core.image;

import dev.clusterrun.core.image.ImageCache.Entry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of the image cache, by name, and what they say read into {@link Entry} values:
 *
 * <pre>
 * images/sha256-HEX.sqsh                 the image, imported by digest
 * images/sha256-HEX.json                 its record ({@link CacheRecord})
 * images/sha256-HEX.sqsh.part-PID        an import under way (renamed when complete)
 * images/.locks/sha256-HEX.lock          held while the digest is imported or removed
 * images/.leases/sha256-HEX/RUN.lease    held by each running job that uses the image
 * images/NAME.sqsh, NAME.sqsh.uri        an import of clusterrun before digests (by reference)
 * </pre>
 */
final class CacheFiles {
  private static final Pattern DIGEST = Pattern.compile("sha256:([0-9a-f]{64})");
  private static final Pattern DIGEST_FILE = Pattern.compile("sha256-([0-9a-f]{64})\\.sqsh");
  private static final String LEASE = ".lease";

  private final Path dir;

  CacheFiles(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /**
   * The hex part of a manifest digest {@code sha256:HEX} (64 lower-case hex digits).
   *
   * @throws IllegalArgumentException when it is not one
   */
  static String hex(String digest) {
    Matcher m = digest == null ? null : DIGEST.matcher(digest);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException(
          "'" + digest + "' is not a manifest digest (sha256: and 64 lower-case hex digits)");
    }
    return m.group(1);
  }

  Path image(String hex) {
    return dir.resolve("sha256-" + hex + ".sqsh");
  }

  Path record(String hex) {
    return dir.resolve("sha256-" + hex + ".json");
  }

  Path lock(String hex) {
    return dir.resolve(".locks").resolve("sha256-" + hex + ".lock");
  }

  Path lease(String hex, String runId) {
    return leases(hex).resolve(runId + LEASE);
  }

  private Path leases(String hex) {
    return dir.resolve(".leases").resolve("sha256-" + hex);
  }

  /** What the cache holds, most recently used first. */
  List<Entry> all() throws IOException {
    List<Entry> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.sqsh")) {
      ds.forEach(files::add);
    }
    files.sort(Comparator.naturalOrder());
    for (Path f : files) {
      Matcher m = DIGEST_FILE.matcher(f.getFileName().toString());
      Entry e = m.matches() ? entry(m.group(1)) : legacy(f);
      if (e != null) {
        out.add(e);
      }
    }
    out.sort(Comparator.comparing(Entry::lastUsed).reversed());
    return out;
  }

  /** The digest's entry, or null when its image is not (or no longer) there. */
  Entry entry(String hex) throws IOException {
    Path sqsh = image(hex);
    String digest = "sha256:" + hex;
    try {
      long size = Files.size(sqsh);
      Instant mtime = Files.getLastModifiedTime(sqsh).toInstant();
      CacheRecord r;
      String problem = null;
      try {
        r = CacheRecord.read(record(hex), digest);
      } catch (CacheRecord.Unreadable u) {
        problem = u.getMessage() + "; the image is taken from its file (" + sqsh + ")";
        r = new CacheRecord(digest, List.of(), size, mtime, mtime);
      }
      return new Entry(
          digest, r.references(), sqsh, size, r.imported(), r.lastUsed(), leased(hex), problem);
    } catch (NoSuchFileException gone) {
      return null;
    }
  }

  /**
   * An image clusterrun imported before it keyed imports by digest: its reference from the {@code
   * .uri} record beside it, its times from the file; no job of this version uses it.
   */
  private static Entry legacy(Path sqsh) throws IOException {
    try {
      if (!Files.isRegularFile(sqsh)) {
        return null;
      }
      long size = Files.size(sqsh);
      Instant mtime = Files.getLastModifiedTime(sqsh).toInstant();
      Path uri = uriRecord(sqsh);
      List<String> refs = new ArrayList<>();
      if (Files.isRegularFile(uri)) {
        String r = Files.readString(uri, StandardCharsets.UTF_8).strip();
        if (!r.isEmpty() && r.indexOf('\n') < 0) {
          refs.add(r);
        }
      }
      return new Entry(null, refs, sqsh, size, mtime, mtime, false, null);
    } catch (NoSuchFileException gone) {
      return null;
    }
  }

  /** The reference record of an import from before digests. */
  static Path uriRecord(Path sqsh) {
    return sqsh.resolveSibling(sqsh.getFileName() + ".uri");
  }

  /**
   * Whether a running job holds a lease on the digest. A lease file whose lock nobody holds was
   * left by a run that died: it is removed and protects nothing.
   */
  boolean leased(String hex) throws IOException {
    Path d = leases(hex);
    if (!Files.isDirectory(d)) {
      return false;
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(d, "*" + LEASE)) {
      ds.forEach(files::add);
    } catch (NoSuchFileException gone) {
      return false;
    }
    boolean live = false;
    for (Path f : files) {
      try (FileLocks.Held h = FileLocks.tryLock(f, false)) {
        if (h == null) {
          live |= Files.exists(f);
        } else {
          Files.deleteIfExists(f);
        }
      }
    }
    return live;
  }

  /** Parts of imports of the digest that never completed (the caller holds its lock). */
  void removeParts(String hex) throws IOException {
    List<Path> parts = new ArrayList<>();
    try (DirectoryStream<Path> ds =
        Files.newDirectoryStream(dir, image(hex).getFileName() + ".part-*")) {
      ds.forEach(parts::add);
    }
    for (Path p : parts) {
      Files.deleteIfExists(p);
    }
  }

  /** The image and its records gone; the lease folder too when empty. */
  void delete(Entry e) throws IOException {
    Files.deleteIfExists(e.file());
    if (e.isLegacy()) {
      Files.deleteIfExists(uriRecord(e.file()));
      return;
    }
    String hex = hex(e.digest());
    Files.deleteIfExists(record(hex));
    try {
      Files.deleteIfExists(leases(hex));
    } catch (DirectoryNotEmptyException kept) {
      // a lease came in meanwhile; it stays
    }
  }
}
