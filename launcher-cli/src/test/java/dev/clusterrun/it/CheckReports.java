package dev.clusterrun.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/** What the ITs read of {@code check --json} and of the drop-in {@code setup} writes. */
final class CheckReports {
  private CheckReports() {}

  /** The result of check {@code id} on {@code node} in a {@code check --json} report. */
  static JsonNode result(JsonNode report, String node, String id) {
    for (JsonNode n : report.get("nodes")) {
      if (n.get("node").asText().equals(node)) {
        for (JsonNode x : n.get("checks")) {
          if (x.get("id").asText().equals(id)) {
            return x;
          }
        }
      }
    }
    throw new AssertionError("no " + id + " for " + node + " in " + report);
  }

  /** The line of {@code name} in clusterrun's drop-in on {@code node}, as setup wrote it. */
  static int dropInLine(LocalCluster c, String node, String name) {
    List<String> lines;
    try {
      lines = Files.readAllLines(c.nodeEnrootDir(node).resolve("enroot.conf.d/50-clusterrun.conf"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(name + " ")) {
        return i + 1;
      }
    }
    throw new AssertionError(name + " not in the drop-in: " + lines);
  }
}
