package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How long the head's held container took to be up, by the key of the words the other nodes start
 * it with ({@code AgentJoin.Held#key}), remembered in the workspace ({@code
 * .clusterrun/start-seconds}, one {@code KEY SECONDS} line each, the newest last): the next run
 * knows at once whether beginning every other node's container during the checks pays ({@link
 * WarmStart#SLOW_START}). A missing or unreadable file is no memory; the last run's figure wins.
 */
final class StartTimes {
  static final String FILE = ".clusterrun/start-seconds";

  /** At most this many containers are remembered, the most recent. */
  static final int MAX = 64;

  private StartTimes() {}

  /** The seconds remembered for {@code key} in {@code workspace}, or null. */
  static Double remembered(Path workspace, String key) {
    return read(workspace).get(key);
  }

  /** Remembers {@code seconds} for {@code key}; a file that cannot be written stays as it was. */
  static synchronized void remember(Path workspace, String key, double seconds) {
    Map<String, Double> m = read(workspace);
    m.remove(key);
    m.put(key, seconds);
    List<String> lines = new ArrayList<>();
    m.forEach((k, v) -> lines.add(k + " " + String.format(Locale.ROOT, "%.3f", v)));
    List<String> kept = lines.subList(Math.max(0, lines.size() - MAX), lines.size());
    try {
      AtomicFiles.write(workspace.resolve(FILE), String.join("\n", kept) + "\n");
    } catch (IOException | RuntimeException e) {
      // no memory: the next run decides while it runs
    }
  }

  private static Map<String, Double> read(Path workspace) {
    Map<String, Double> m = new LinkedHashMap<>();
    Path f = workspace.resolve(FILE);
    try {
      if (Files.size(f) > 64 * 1024) {
        return m;
      }
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        String[] w = line.strip().split(" ");
        if (w.length == 2 && w[0].matches("[0-9a-f]{16}")) {
          try {
            m.put(w[0], Double.parseDouble(w[1]));
          } catch (NumberFormatException e) {
            // not clusterrun's line
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // no file yet, or unreadable: no memory
    }
    return m;
  }
}
