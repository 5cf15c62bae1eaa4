package dev.clusterrun.cli;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.NodeSelection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --nodes HOSTFILE|NODELIST}, {@code --slots}, {@code --exclude}/{@code -x} and {@code
 * --node-count}, shared by every command that works on nodes; without {@code --nodes}, the
 * scheduler's allocation in the environment.
 */
final class NodesOption {
  @Option(names = "--nodes", paramLabel = "HOSTFILE|NODELIST")
  String nodes;

  @Option(names = "--slots", paramLabel = "N")
  Integer slots;

  @Option(
      names = {"-x", "--exclude"},
      paramLabel = "@FILE|NODELIST")
  List<String> exclude = new ArrayList<>();

  @Option(names = "--node-count", paramLabel = "N")
  Integer nodeCount;

  NodeSelection selection() {
    return new NodeSelection(nodes, slots, exclude, nodeCount);
  }

  Hostfile read(Map<String, String> env) {
    return selection().read(env, Path.of("").toAbsolutePath());
  }
}
