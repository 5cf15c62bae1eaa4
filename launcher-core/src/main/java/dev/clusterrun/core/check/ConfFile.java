package dev.clusterrun.core.check;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code enroot.conf} or one drop-in, with its checksum (or why it could not be read).
 *
 * @param sets the settings clusterrun follows that the file sets (whether or not its line won),
 *     with the line of each
 */
public record ConfFile(String path, String sha256, String error, Map<String, Integer> sets) {
  public ConfFile {
    sets = sets == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(sets));
  }

  /** The file name without its directory, e.g. {@code 50-clusterrun.conf}. */
  public String fileName() {
    int slash = path.lastIndexOf('/');
    return slash >= 0 ? path.substring(slash + 1) : path;
  }
}
