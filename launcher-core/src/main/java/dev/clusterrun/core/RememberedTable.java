package dev.clusterrun.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small table a run remembers in the workspace for the next one (enroot's versions by executable,
 * the head's start times by container): a file of lines, one key a line, the most recently learnt
 * last. It is read whole or not at all (a missing, unreadable or oversized file is an empty table,
 * and a line the format does not take is skipped), holds at most a bounded number of keys (the
 * oldest go first), and is rewritten atomically by whoever learns something new. Two runs that
 * learn at once lose one update, which is only learnt again.
 *
 * @param <V> what a key is remembered with
 */
public final class RememberedTable<V> {
  /** How the table's lines are read and written. */
  public interface Format<V> {
    /** The key and value {@code line} holds, or null for a line that is not one of the table's. */
    Map.Entry<String, V> read(String line);

    /** The line that holds {@code key} and {@code value}, without its line end. */
    String line(String key, V value);
  }

  private final Path file;
  private final int max;
  private final Format<V> format;
  private final Map<String, V> entries = new LinkedHashMap<>();

  private RememberedTable(Path file, int max, Format<V> format) {
    this.file = file;
    this.max = max;
    this.format = format;
  }

  /**
   * The table in {@code file}, empty when the file is missing, unreadable or larger than {@code
   * maxBytes}; it keeps at most {@code max} keys.
   */
  public static <V> RememberedTable<V> read(Path file, long maxBytes, int max, Format<V> format) {
    RememberedTable<V> t = new RememberedTable<>(file, max, format);
    try {
      if (Files.size(file) > maxBytes) {
        return t;
      }
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        Map.Entry<String, V> e = format.read(line);
        if (e != null) {
          t.entries.remove(e.getKey());
          t.entries.put(e.getKey(), e.getValue());
        }
      }
    } catch (IOException | RuntimeException e) {
      t.entries.clear(); // not read: nothing remembered
    }
    return t;
  }

  /** What {@code key} is remembered with, or null. */
  public V get(String key) {
    return entries.get(key);
  }

  /** Every key with its value, the oldest first. */
  public Map<String, V> entries() {
    return Collections.unmodifiableMap(entries);
  }

  /** Remembers {@code value} for {@code key} as the newest; the oldest beyond the bound go. */
  public void put(String key, V value) {
    entries.remove(key);
    entries.put(key, value);
    Iterator<String> oldest = entries.keySet().iterator();
    for (int extra = entries.size() - max; extra > 0; extra--) {
      oldest.next();
      oldest.remove();
    }
  }

  /** Writes the table over its file; a file that cannot be written stays as it was. */
  public void write() {
    StringBuilder b = new StringBuilder();
    entries.forEach((k, v) -> b.append(format.line(k, v)).append('\n'));
    try {
      AtomicFiles.write(file, b.toString());
    } catch (IOException | RuntimeException e) {
      // not remembered: the next run learns it again
    }
  }
}
