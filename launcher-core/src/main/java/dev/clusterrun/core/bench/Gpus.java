package dev.clusterrun.core.bench;

/**
 * The GPUs of the nodes, for {@code --dat auto}: the model (of the first node that has one) and the
 * count over all nodes.
 */
public record Gpus(String model, int total) {
  /** From {@code nvidia-smi -L} on each node ({@code GPU 0: NVIDIA H200 (UUID: …)} lines). */
  public static Gpus fromSmi(Iterable<String> outputs) {
    String model = null;
    int total = 0;
    for (String out : outputs) {
      for (String line : out.split("\n")) {
        if (line.startsWith("GPU ")) {
          total++;
          if (model == null) {
            model = line.strip();
          }
        }
      }
    }
    return new Gpus(model, total);
  }
}
