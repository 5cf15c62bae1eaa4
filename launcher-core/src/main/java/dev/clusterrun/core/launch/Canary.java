package dev.clusterrun.core.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Proof that every rank runs inside the container: a short mpirun of the job's shape whose ranks
 * print their hostname and mount namespace; a rank whose namespace equals its node's own ran on the
 * host, outside the container (what a silently skipped hook leads to).
 */
public final class Canary {
  public static final String TAG = "clusterrun-canary";

  /** The command each rank runs (inside the container). */
  public static List<String> command() {
    return List.of(
        "sh",
        "-c",
        "printf '" + TAG + " %s %s\\n' \"$(hostname)\" \"$(readlink /proc/self/ns/mnt)\"");
  }

  /** One rank's answer. */
  public record Rank(String hostname, String mountNamespace) {}

  /**
   * What the canary showed for one node.
   *
   * @param nodeNamespace the node's own mount namespace (from its facts), null when unknown
   */
  public record NodeVerdict(
      String hostname, int ranks, int inside, int outside, String nodeNamespace) {
    public boolean ok() {
      return ranks > 0 && outside == 0 && nodeNamespace != null;
    }
  }

  /** The overall result: per hostname, plus hostnames that had no rank at all. */
  public record Result(List<NodeVerdict> nodes, List<String> missing, int exitCode) {
    public boolean ok() {
      return exitCode == 0 && missing.isEmpty() && nodes.stream().allMatch(NodeVerdict::ok);
    }
  }

  public static List<Rank> parse(String output) {
    List<Rank> out = new ArrayList<>();
    for (String line : output.split("\n")) {
      String l = line.strip();
      int i = l.indexOf(TAG + " ");
      if (i < 0) {
        continue;
      }
      String[] f = l.substring(i + TAG.length() + 1).trim().split("\\s+");
      if (f.length >= 2) {
        out.add(new Rank(f[0], f[1]));
      }
    }
    return out;
  }

  /**
   * @param expected hostnames that must have ranks, each with its node's own mount namespace
   *     (hostname → namespace as read over SSH on that node)
   */
  public static Result judge(List<Rank> ranks, Map<String, String> expected, int exitCode) {
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (String h : expected.keySet()) {
      counts.put(h, new int[2]);
    }
    for (Rank r : ranks) {
      String nodeNs = expected.get(r.hostname());
      int[] c = counts.computeIfAbsent(r.hostname(), k -> new int[2]);
      if (nodeNs != null && !nodeNs.equals(r.mountNamespace())) {
        c[0]++;
      } else {
        c[1]++;
      }
    }
    List<NodeVerdict> nodes = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    counts.forEach(
        (h, c) -> {
          if (c[0] + c[1] == 0) {
            missing.add(h);
          } else {
            nodes.add(new NodeVerdict(h, c[0] + c[1], c[0], c[1], expected.get(h)));
          }
        });
    return new Result(nodes, missing, exitCode);
  }
}
