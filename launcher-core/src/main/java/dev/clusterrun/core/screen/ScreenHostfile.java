package dev.clusterrun.core.screen;

import dev.clusterrun.core.AtomicFiles;
import dev.clusterrun.core.cluster.Host;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * {@code --write-hostfile}: the nodes without the flagged ones; for a hostfile, the input hostfile
 * without them. Every line that names no flagged node is kept as written (comments and blank lines
 * too); a line that names a flagged node is left out, and when it named others too (a range), they
 * are written one a line, with the line's slots.
 */
final class ScreenHostfile {
  private ScreenHostfile() {}

  /**
   * Writes {@code hf} without the flagged nodes: the lines of {@code input} when the nodes are that
   * hostfile's, as they are (null: a node list, an allocation, or a selection from a hostfile),
   * else one line per node left.
   */
  static void write(Path input, Hostfile hf, Collection<String> flagged, Path target)
      throws IOException {
    AtomicFiles.write(target, input != null ? without(input, flagged) : without(hf, flagged));
  }

  /** {@code hf}'s hosts without the flagged ones, one a line, slots explicit. */
  static String without(Hostfile hf, Collection<String> flagged) {
    StringBuilder b = new StringBuilder();
    b.append("# clusterrun screen: the nodes of ").append(hf.origin().replace('\n', ' '));
    List<String> out = hf.names().stream().filter(flagged::contains).toList();
    b.append(out.isEmpty() ? "" : "; left out: " + String.join(", ", out)).append('\n');
    for (Host h : hf.hosts()) {
      if (!flagged.contains(h.name())) {
        b.append(h.toHostfileLine()).append('\n');
      }
    }
    return b.toString();
  }

  static String without(Path input, Collection<String> flagged) throws IOException {
    Hostfile hf = HostfileParser.read(input);
    List<String> lines = List.of(Files.readString(input, StandardCharsets.UTF_8).split("\n", -1));
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      int lineNo = i + 1;
      List<Host> here = hf.hosts().stream().filter(h -> h.line() == lineNo).toList();
      if (here.stream().noneMatch(h -> flagged.contains(h.name()))) {
        if (i < lines.size() - 1 || !lines.get(i).isEmpty()) {
          b.append(lines.get(i)).append('\n');
        }
        continue;
      }
      b.append("# clusterrun screen left out: ")
          .append(
              String.join(", ", here.stream().map(Host::name).filter(flagged::contains).toList()))
          .append('\n');
      for (Host h : here) {
        if (!flagged.contains(h.name())) {
          b.append(h.slotsGiven() ? h.toHostfileLine() : h.name()).append('\n');
        }
      }
    }
    return b.toString();
  }
}
