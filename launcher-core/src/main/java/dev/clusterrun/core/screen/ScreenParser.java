package dev.clusterrun.core.screen;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the lines of the screen program ({@code screen.c}, whose header documents them), with or
 * without Open MPI's {@code --tag-output} prefix; other lines are ignored:
 *
 * <pre>
 * clusterrun-screen begin nodes=3 ranks=3 repeat=3
 * clusterrun-screen node=0 host=node1 ranks=1
 * clusterrun-screen node=0 rep=1 dgemm_Gflops=1.612 triad_MBps=2716.6
 * clusterrun-screen pair=0-1 rep=1 bandwidth_MBps=812.50 latency_us=31.20
 * clusterrun-screen end
 * </pre>
 */
public final class ScreenParser {
  private ScreenParser() {}

  /** A node as the program found it: its index in hostfile order, its host name, its ranks. */
  public record NodeSeen(int node, String host, int ranks) {}

  /** One repeat of a node's single-node figures (the mean of its ranks'). */
  public record NodeRep(int node, int rep, double dgemmGflops, double triadMBps) {}

  /** One repeat of a pair's figures; a negative figure was not measured. */
  public record PairRep(int a, int b, int rep, double bandwidthMBps, double latencyUs) {}

  /** Everything read; {@code ended} only when the program's last line was there. */
  public record Output(
      boolean begun,
      boolean ended,
      List<NodeSeen> nodes,
      List<NodeRep> nodeReps,
      List<PairRep> pairReps) {
    public Output {
      nodes = List.copyOf(nodes);
      nodeReps = List.copyOf(nodeReps);
      pairReps = List.copyOf(pairReps);
    }
  }

  private static final String NUM = "(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";
  private static final String TAG = "(?:^|\\s|:)clusterrun-screen ";
  private static final Pattern BEGIN =
      Pattern.compile(TAG + "begin nodes=(\\d{1,6}) ranks=(\\d{1,6}) repeat=(\\d{1,6})\\s*$");
  private static final Pattern END = Pattern.compile(TAG + "end\\s*$");
  private static final Pattern NODE =
      Pattern.compile(TAG + "node=(\\d{1,6}) host=(\\S+) ranks=(\\d{1,6})\\s*$");
  private static final Pattern NODE_REP =
      Pattern.compile(
          TAG
              + "node=(\\d{1,6}) rep=(\\d{1,6}) dgemm_Gflops="
              + NUM
              + " triad_MBps="
              + NUM
              + "\\s*$");
  private static final Pattern PAIR_REP =
      Pattern.compile(
          TAG
              + "pair=(\\d{1,6})-(\\d{1,6}) rep=(\\d{1,6}) bandwidth_MBps="
              + NUM
              + " latency_us="
              + NUM
              + "\\s*$");

  public static Output parse(String text) {
    boolean begun = false;
    boolean ended = false;
    List<NodeSeen> nodes = new ArrayList<>();
    List<NodeRep> nodeReps = new ArrayList<>();
    List<PairRep> pairReps = new ArrayList<>();
    for (String raw : (text == null ? "" : text).split("\n", -1)) {
      String line = raw.replace("\r", "");
      Matcher m;
      if (BEGIN.matcher(line).find()) {
        begun = true;
      } else if (END.matcher(line).find()) {
        ended = begun;
      } else if ((m = NODE.matcher(line)).find()) {
        nodes.add(new NodeSeen(num(m, 1), m.group(2), num(m, 3)));
      } else if ((m = NODE_REP.matcher(line)).find()) {
        nodeReps.add(new NodeRep(num(m, 1), num(m, 2), real(m, 3), real(m, 4)));
      } else if ((m = PAIR_REP.matcher(line)).find()) {
        pairReps.add(new PairRep(num(m, 1), num(m, 2), num(m, 3), real(m, 4), real(m, 5)));
      }
    }
    return new Output(begun, ended, nodes, nodeReps, pairReps);
  }

  private static int num(Matcher m, int g) {
    return Integer.parseInt(m.group(g));
  }

  private static double real(Matcher m, int g) {
    return Double.parseDouble(m.group(g));
  }
}
