package dev.clusterrun.core.check;

import static dev.clusterrun.core.check.CheckText.oneLine;

import dev.clusterrun.core.cluster.Host;

/** The {@code gpu-slots} check: hostfile slots match the node's GPUs. */
final class GpuSlotsCheck extends NodeCheck {
  @Override
  CheckResult judge(CheckInput in, Facts f) {
    String n = f.node();
    if (f.gpus().count() == null) {
      return skip(n, "no nvidia-smi");
    }
    if (f.gpus().error() != null) {
      return warn(
          n,
          "nvidia-smi -L failed: " + oneLine(f.gpus().error()),
          "check the NVIDIA driver on " + n);
    }
    Host h = in.hosts().get(n);
    if (h == null) {
      return skip(n, "not in the hostfile");
    }
    String gpus =
        f.gpus().count()
            + " GPU"
            + (f.gpus().count() == 1 ? "" : "s")
            + (f.gpus().model() != null ? " (" + f.gpus().model() + ")" : "");
    if (h.slots() == f.gpus().count()) {
      return pass(n, h.slots() + " slots, " + gpus);
    }
    return warn(
        n,
        h.slots()
            + " slot"
            + (h.slots() == 1 ? "" : "s")
            + (h.slotsGiven() ? "" : " (none given)")
            + " but "
            + gpus,
        "write `"
            + n
            + " slots="
            + f.gpus().count()
            + "` in the hostfile for one rank per GPU (ignore if intended)");
  }
}
