package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds NVIDIA HPL's launcher script in an hpc-benchmarks container. Releases put it at the package
 * root, {@code /workspace/hpl.sh} (21.x–26.x; from 25.x a link to {@code hpl-linux-x86_64/hpl.sh}),
 * some builds under a CUDA-major folder ({@code /workspace/cuda12/}), the package installed from
 * NVIDIA's .deb under {@code /opt/nvidia/nvidia_hpc_benchmarks_openmpi/}; the real file lives in
 * {@code hpl-linux-x86_64/} or, on Grace Hopper, {@code hpl-linux-aarch64-gpu/}. {@code
 * hpl-aarch64.sh} is the Grace-CPU-only HPL and never chosen.
 */
public final class HplScriptLocator {
  private HplScriptLocator() {}

  /** The places to look, for {@code ls -d} in the container. */
  public static final List<String> SEARCH_PATHS =
      List.of(
          "/workspace/hpl.sh",
          "/workspace/cuda*/hpl.sh",
          "/workspace/hpl-linux-*/hpl.sh",
          "/workspace/cuda*/hpl-linux-*/hpl.sh",
          "/opt/nvidia/nvidia_hpc_benchmarks_openmpi/hpl.sh",
          "/opt/nvidia/nvidia_hpc_benchmarks_openmpi/hpl-linux-*/hpl.sh",
          "/hpl.sh");

  /** The chosen script and why, or none with the reason and what was found. */
  public record Pick(String path, String reason, List<String> candidates) {
    public Pick {
      candidates = List.copyOf(candidates);
    }

    public boolean found() {
      return path != null;
    }
  }

  private static final Pattern CUDA_DIR = Pattern.compile("/cuda(\\d+)/");

  /**
   * Chooses among found paths.
   *
   * @param found paths that exist in the container (the lines {@link HplProbe} printed)
   * @param arch {@code x86_64} or {@code aarch64} (from {@code uname -m}); null when unknown
   */
  public static Pick pick(List<String> found, String arch) {
    List<String> scripts = new ArrayList<>();
    for (String raw : found) {
      String p = raw.strip();
      if (p.endsWith("/hpl.sh") || p.equals("hpl.sh")) {
        if (arch == null || !p.contains("/hpl-linux-") || p.contains("/hpl-linux-" + arch)) {
          scripts.add(p);
        }
      }
    }
    if (scripts.isEmpty()) {
      return new Pick(
          null,
          "no hpl.sh in the container (looked for " + String.join(", ", SEARCH_PATHS) + ")",
          found);
    }
    scripts.sort(
        Comparator.comparingInt(HplScriptLocator::rank)
            .thenComparing(Comparator.comparingInt(HplScriptLocator::cudaMajor).reversed())
            .thenComparingInt(String::length)
            .thenComparing(Comparator.naturalOrder()));
    String best = scripts.get(0);
    String why =
        switch (rank(best)) {
          case 0 -> best + " is the package's own launcher at its root";
          case 1 -> best + " is the launcher of the newest CUDA build in the image";
          case 2 ->
              best + " is the launcher inside the HPL package folder (no root launcher found)";
          case 4 -> best + " is the Grace-CPU-only HPL (no GPU launcher found)";
          default -> best + " is the only hpl.sh found";
        };
    return new Pick(best, why, found);
  }

  private static int rank(String p) {
    if (p.equals("/workspace/hpl.sh")
        || p.equals("/opt/nvidia/nvidia_hpc_benchmarks_openmpi/hpl.sh")) {
      return 0;
    }
    if (CUDA_DIR.matcher(p).find() && !p.contains("/hpl-linux-")) {
      return 1;
    }
    if (p.contains("/hpl-linux-aarch64/")) {
      // Grace-CPU-only HPL: a last resort for a GPU benchmark
      return 4;
    }
    if (p.contains("/hpl-linux-")) {
      return 2;
    }
    return 3;
  }

  private static int cudaMajor(String p) {
    Matcher m = CUDA_DIR.matcher(p);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }
}
