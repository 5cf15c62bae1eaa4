package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

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

  /** Holds {@code r} to the problem its best HPL run solved: N, NB and the P x Q process grid. */
  static void assertProblem(BenchResult r, long n, int nb, int p, int q) {
    assertThat(r.n()).isEqualTo(n);
    assertThat(r.nb()).isEqualTo(nb);
    assertThat(r.p()).isEqualTo(p);
    assertThat(r.q()).isEqualTo(q);
  }

  /** {@code fixture} read by {@code parser}, held to have {@link Verdict#PASSED}. */
  static BenchResult passed(BenchParser parser, String fixture) {
    BenchResult r = parser.parse(read(fixture));
    assertThat(r.verdict()).as("%s", r.reason()).isEqualTo(Verdict.PASSED);
    return r;
  }
}
