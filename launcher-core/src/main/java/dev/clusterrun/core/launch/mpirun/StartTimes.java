package dev.clusterrun.core.launch.mpirun;

import dev.clusterrun.core.RememberedTable;
import java.nio.file.Path;
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

  private static final long MAX_FILE_BYTES = 64 * 1024;

  private static final RememberedTable.Format<Double> LINES =
      new RememberedTable.Format<>() {
        @Override
        public Map.Entry<String, Double> read(String line) {
          String[] w = line.strip().split(" ");
          if (w.length != 2 || !w[0].matches("[0-9a-f]{16}")) {
            return null;
          }
          try {
            return Map.entry(w[0], Double.parseDouble(w[1]));
          } catch (NumberFormatException e) {
            return null; // not clusterrun's line
          }
        }

        @Override
        public String line(String key, Double seconds) {
          return key + " " + String.format(Locale.ROOT, "%.3f", seconds);
        }
      };

  private StartTimes() {}

  /** The seconds remembered for {@code key} in {@code workspace}, or null. */
  static Double remembered(Path workspace, String key) {
    return table(workspace).get(key);
  }

  /** Remembers {@code seconds} for {@code key}; a file that cannot be written stays as it was. */
  static synchronized void remember(Path workspace, String key, double seconds) {
    RememberedTable<Double> t = table(workspace);
    t.put(key, seconds);
    t.write();
  }

  private static RememberedTable<Double> table(Path workspace) {
    return RememberedTable.read(workspace.resolve(FILE), MAX_FILE_BYTES, MAX, LINES);
  }
}
