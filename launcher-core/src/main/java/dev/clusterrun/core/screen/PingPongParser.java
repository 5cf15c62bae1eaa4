package dev.clusterrun.core.screen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the ping-pong's lines ({@code pingpong.c}): one per pair, printed by its even rank, e.g.
 * {@code clusterrun-screen pair=0-1 host=n1 peer=n2 bandwidth_MBps=812.50 latency_us=31.20}, with
 * or without Open MPI's {@code --tag-output} prefix. Other lines are ignored.
 */
public final class PingPongParser {
  private PingPongParser() {}

  /** One pair's figures, by the ranks that measured them. */
  public record Measured(int rank, int peer, double bandwidthMBps, double latencyUs) {}

  private static final String NUM = "([0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";

  private static final Pattern LINE =
      Pattern.compile(
          "(?:^|\\s|:)clusterrun-screen pair=(\\d+)-(\\d+) host=\\S* peer=\\S*"
              + " bandwidth_MBps="
              + NUM
              + " latency_us="
              + NUM
              + "\\s*$");

  /** The pairs found, by the even rank. */
  public static Map<Integer, Measured> parse(String output) {
    Map<Integer, Measured> out = new LinkedHashMap<>();
    if (output == null) {
      return out;
    }
    for (String raw : output.split("\n", -1)) {
      Matcher m = LINE.matcher(raw.replace("\r", ""));
      if (m.find()) {
        int rank = Integer.parseInt(m.group(1));
        out.put(
            rank,
            new Measured(
                rank,
                Integer.parseInt(m.group(2)),
                Double.parseDouble(m.group(3)),
                Double.parseDouble(m.group(4))));
      }
    }
    return out;
  }
}
