package dev.clusterrun.core.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

final class Fixtures {
  private Fixtures() {}

  static String read(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/bench/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * hpl-nvidia-2nodes.txt read as a run of 16 ranks on node1 and node2 in NVIDIA's 25.04 image,
   * started and ended at these times (null: unknown).
   */
  static BenchResult nvidiaHpl2Nodes(Instant start, Instant end) {
    return new HplParser()
        .parse(read("hpl-nvidia-2nodes.txt"))
        .withRun(
            List.of("node1", "node2"),
            16,
            16,
            "docker://nvcr.io#nvidia/hpc-benchmarks:25.04",
            start,
            end);
  }
}
