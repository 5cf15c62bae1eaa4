package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.cluster.HostfileParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples in docs/job-spec.md load as the document says. */
class JobSpecDocTest {
  private static final Path DOC = Path.of("..", "docs", "job-spec.md");

  /** The fenced blocks of the document with the given info string, in order. */
  static List<String> blocks(String info) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = null;
    for (String line : Golden.read(DOC).split("\n", -1)) {
      if (cur == null && line.equals("```" + info)) {
        cur = new StringBuilder();
      } else if (cur != null && line.strip().equals("```")) {
        out.add(cur.toString());
        cur = null;
      } else if (cur != null) {
        cur.append(line).append('\n');
      }
    }
    return out;
  }

  @Test
  void theFullExampleSetsEveryField() {
    JobSpec j = SpecLoader.parse(blocks("yaml").get(0), "job.yaml");
    assertThat(SpecLoaderTest.render(j)).doesNotContain("null");
    assertThat(j.container()).hasNoNullFieldsOrProperties();
    assertThat(j.workspace()).hasNoNullFieldsOrProperties();
    assertThat(j.mpi()).hasNoNullFieldsOrProperties();
    assertThat(j.ssh()).hasNoNullFieldsOrProperties();
    assertThat(j.name()).isEqualTo("seed-hpl");
    assertThat(j.time()).isEqualTo(java.time.Duration.ofHours(2));
    assertThat(j.command()).containsExactly("./hpl.sh", "--dat", "/app/HPL.dat");
    assertThat(j.mpi().env()).containsExactly("HPL_USE_NVSHMEM", "UCX_TLS=rc,sm");
    assertThat(j.container().mounts())
        .extracting(dev.clusterrun.core.enroot.EnrootArgs::mount)
        .containsExactly(
            "/data:/data:none:x-create=auto,rbind,ro",
            "/scratch:/scratch:none:x-create=auto,rbind,rw");
  }

  @Test
  void theSmallestExampleLoads() {
    JobSpec j = SpecLoader.parse(blocks("yaml").get(1), "job.yaml");
    assertThat(j.container().image().isUri()).isFalse();
    assertThat(j.command()).containsExactly("python3", "train.py");
  }

  @Test
  void theHostfileExampleExpandsAsDescribed() {
    String hostfile =
        blocks("").stream().filter(b -> b.startsWith("# The seed cluster.")).findFirst().get();
    Hostfile hf = HostfileParser.parse(hostfile, "hosts.txt");
    assertThat(hf.names())
        .startsWith("node01", "node02", "gpu01")
        .contains("gpu16", "rack1n1", "rack2n3")
        .endsWith("10.0.0.21", "fe80::21");
    assertThat(hf.hosts()).hasSize(2 + 16 + 6 + 2);
  }
}
