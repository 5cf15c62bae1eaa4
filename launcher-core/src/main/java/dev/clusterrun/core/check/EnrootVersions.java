package dev.clusterrun.core.check;

import dev.clusterrun.core.RememberedTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The enroot versions the nodes' fact scripts read, remembered on the head by executable: {@code
 * enroot version} prints a constant of the installed enroot script, so an executable whose path,
 * device, inode, size, modification and change time are all the same (the fact script's {@code
 * enroot.id}) prints the same version, and a run need not start enroot on every node to learn it
 * again. Any reinstall or edit changes the change time. An entry is trusted for {@link #KEEP}, so
 * that an enroot reached through a wrapper whose target changed is read again within a day. {@code
 * run} and {@code check} both use them (the fact script's {@code enroot version} was 17 of its 39
 * ms on a node of the local cluster): removing the file has every node start enroot again.
 *
 * <p>The file is {@code WORKSPACE/.clusterrun/enroot-versions}, beside the containers' Open MPI
 * versions: lines {@code EPOCH-SECONDS PATH ID VERSION}, written atomically by whoever learns a new
 * one (a lost update is only read again).
 */
public final class EnrootVersions {
  /** How long a version read is trusted without starting enroot again. */
  static final Duration KEEP = Duration.ofHours(24);

  /**
   * At most this many executables are remembered, the most recently read: the table goes to every
   * node inside the login's command (about 90 bytes a line, next to the fact script's 25 KB, under
   * Linux's 128 KiB for one argument). Beyond it the oldest are read again, which is only slower.
   */
  static final int MAX = 256;

  /** The table given to the nodes holds at most this many bytes, the newest lines first. */
  static final int MAX_TABLE_BYTES = 32 * 1024;

  /** A file larger than this is not read (it cannot be clusterrun's). */
  private static final long MAX_FILE_BYTES = 1 << 20;

  private final Clock clock;
  private final RememberedTable<Entry> entries;

  private record Entry(long at, String version) {}

  /** Lines {@code EPOCH-SECONDS PATH ID VERSION}; the key is {@code PATH ID}. */
  private static final RememberedTable.Format<Entry> LINES =
      new RememberedTable.Format<>() {
        @Override
        public Map.Entry<String, Entry> read(String l) {
          int sp = l.indexOf(' ');
          int last = l.lastIndexOf(' ');
          int id = last < 0 ? -1 : l.lastIndexOf(' ', last - 1);
          if (sp < 1 || id <= sp) {
            return null;
          }
          try {
            long at = Long.parseLong(l.substring(0, sp));
            String version = l.substring(last + 1);
            return rememberable(l.substring(sp + 1, id), version)
                ? Map.entry(l.substring(sp + 1, last), new Entry(at, version))
                : null;
          } catch (NumberFormatException e) {
            return null; // a damaged line is skipped
          }
        }

        @Override
        public String line(String key, Entry e) {
          return e.at() + " " + key + " " + e.version();
        }
      };

  EnrootVersions(Path file, Clock clock) {
    this.clock = clock;
    // nothing remembered when unreadable: every node starts enroot, as before
    this.entries = RememberedTable.read(file, MAX_FILE_BYTES, MAX, LINES);
  }

  /**
   * The versions remembered in {@code workspace} (none when the file is missing, unreadable or
   * larger than 1 MiB).
   */
  public static EnrootVersions in(String workspace) {
    return new EnrootVersions(
        Path.of(workspace, ".clusterrun", "enroot-versions"), Clock.systemUTC());
  }

  /**
   * Lines {@code PATH ID VERSION} of the versions still trusted, for the fact script: the most
   * recently read first, at most {@link #MAX_TABLE_BYTES}.
   */
  public String table() {
    long now = clock.instant().getEpochSecond();
    List<Map.Entry<String, Entry>> newestFirst = new ArrayList<>(entries.entries().entrySet());
    Collections.reverse(newestFirst);
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Entry> e : newestFirst) {
      long age = now - e.getValue().at();
      String line = e.getKey() + " " + e.getValue().version() + "\n";
      if (age >= 0
          && age < KEEP.toSeconds()
          && b.length() + line.getBytes(StandardCharsets.UTF_8).length <= MAX_TABLE_BYTES) {
        b.append(line);
      }
    }
    return b.toString();
  }

  /**
   * Remembers the versions the nodes read by starting enroot ({@code facts}); writes the file when
   * one is new. A file that cannot be written only means enroot is started again next time.
   */
  public void learn(Collection<Facts> facts) {
    long now = clock.instant().getEpochSecond();
    boolean changed = false;
    for (Facts f : facts) {
      if (f == null || !f.answered() || f.raw() == null) {
        continue;
      }
      String id = f.raw().get("enroot.id");
      String version = f.enroot().version();
      if (id == null
          || id.isEmpty()
          || id.contains(" ")
          || "yes".equals(f.raw().get("enroot.version.remembered"))
          || !rememberable(f.enroot().path(), version)) {
        continue;
      }
      entries.put(f.enroot().path() + " " + id, new Entry(now, version));
      changed = true;
    }
    if (changed) {
      entries.write(); // not written: the next run reads it again
    }
  }

  /** A path and version that fit one line of the table and of the fact script's lookup. */
  private static boolean rememberable(String path, String version) {
    return path != null
        && path.startsWith("/")
        && version != null
        && !version.isEmpty()
        && path.chars().noneMatch(c -> c < 0x20 || c == 0x7f)
        && version.chars().allMatch(c -> c > 0x20 && c != 0x7f);
  }
}
