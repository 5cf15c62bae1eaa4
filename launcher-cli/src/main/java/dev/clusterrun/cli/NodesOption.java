package dev.clusterrun.cli;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --nodes HOSTFILE}, shared by every command that works on nodes. */
final class NodesOption {
  @Option(names = "--nodes", required = true, paramLabel = "HOSTFILE")
  Path path;

  Hostfile read() {
    return HostfileParser.read(path);
  }
}
