package dev.clusterrun.core.screen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a screen of GPU nodes says it did not measure (the GPUs), from the nodes' facts. */
class GpuNoteTest {
  private static Map<String, Integer> gpus(Object... nodeCount) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeCount.length; i += 2) {
      m.put((String) nodeCount[i], (Integer) nodeCount[i + 1]);
    }
    return m;
  }

  @Test
  void cpuNodesGetNoNote() {
    assertThat(ScreenFlow.gpuNote(gpus())).isNull();
    assertThat(ScreenFlow.gpuNote(gpus("node1", null, "node2", 0))).isNull();
  }

  @Test
  void nodesAlikeAreCountedOnce() {
    assertThat(ScreenFlow.gpuNote(gpus("gpu01", 8, "gpu02", 8, "gpu03", 8, "gpu04", 8)))
        .startsWith("GPUs not screened: 4 nodes have NVIDIA GPUs (8 GPUs each); ")
        .contains("measured CPUs, memory and the host network, not the GPUs")
        .contains("docs/screen.md");
  }

  @Test
  void aNodeShowingFewerGpusIsNamed() {
    assertThat(
            ScreenFlow.gpuNote(
                gpus("gpu01", 8, "gpu02", 8, "gpu03", 7, "gpu04", 8, "gpu05", 8, "cpu01", null)))
        .startsWith(
            "GPUs not screened: 5 nodes have NVIDIA GPUs (8 GPUs on 4 nodes; 7 GPUs on gpu03)");
    assertThat(ScreenFlow.gpuNote(gpus("a", 1, "b", null)))
        .startsWith("GPUs not screened: 1 node has NVIDIA GPUs (1 GPU each)");
  }
}
