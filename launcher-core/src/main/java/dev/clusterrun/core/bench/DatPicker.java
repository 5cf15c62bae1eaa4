package dev.clusterrun.core.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --dat auto}: picks one of the sample HPL input files shipped in NVIDIA's hpc-benchmarks
 * container ({@code hpl-linux-*&#47;sample-dat/}) for the GPUs at hand. The samples are named by
 * GPU count, optionally with a GPU model — {@code HPL-1GPU.dat}, {@code HPL-8GPUs.dat}, {@code
 * HPL-H200-16GPUs.dat}, {@code HPL-GH-32GPUs.dat} (Grace Hopper) — or by DGX node count, 8 GPUs per
 * node — {@code HPL-dgx-1N.dat}, {@code HPL-dgx-h100-1N.dat}, {@code HPL-dgx-a100-8N.dat}. A file
 * qualifies when its GPU count equals the total; a file made for one model never goes to another
 * (its N is sized for that model's memory). Among qualifying files one made for this model wins,
 * then a model-neutral {@code HPL-<k>GPUs.dat}, then {@code HPL-dgx-<k>N.dat}.
 */
public final class DatPicker {
  private DatPicker() {}

  private static final Pattern BY_GPUS =
      Pattern.compile("(?i)^HPL(?:-([A-Za-z][A-Za-z0-9]*))?-(\\d+)GPUs?\\.dat$");
  private static final Pattern BY_DGX =
      Pattern.compile("(?i)^HPL-dgx(?:-([A-Za-z][A-Za-z0-9]*))?-(\\d+)N\\.dat$");
  private static final Pattern SMI_MODEL =
      Pattern.compile("(?i)(?:NVIDIA\\s+)?((?:Tesla\\s+)?[A-Z]+\\d+[A-Z]*)");

  /**
   * GPU models NVIDIA HPL's sample files and this picker are made for; any model of the same shape
   * (letters and digits, as {@code nvidia-smi -L} names it) is accepted too.
   */
  public static final List<String> KNOWN_MODELS =
      List.of("A100", "H100", "H200", "H800", "GH200", "B200", "GB200", "B300", "GB300");

  /**
   * Why {@code gpuModel} (a {@code --gpu-model} value) names no GPU model, or null when it does.
   */
  public static String modelProblem(String gpuModel) {
    if (model(gpuModel) != null) {
      return null;
    }
    return "'"
        + gpuModel
        + "' is not a GPU model; give one such as "
        + String.join(", ", KNOWN_MODELS)
        + " (or a line of nvidia-smi -L)";
  }

  /** Which file, and why; or no file, why not, and the candidates that were looked at. */
  public record Pick(String file, String reason, List<String> candidates) {
    public Pick {
      candidates = List.copyOf(candidates);
    }

    public boolean found() {
      return file != null;
    }
  }

  /** One sample file as understood from its name. */
  record Sample(String path, String name, String model, int gpus, boolean dgx) {}

  /**
   * Picks a sample dat file.
   *
   * @param candidates file names or paths found in the container
   * @param gpuModel a line of {@code nvidia-smi -L} (e.g. {@code GPU 0: NVIDIA H200 (UUID: …)}) or
   *     just the model ({@code NVIDIA H200}); null or blank when unknown
   * @param totalGpus GPUs over all nodes, one MPI rank each
   */
  public static Pick pick(List<String> candidates, String gpuModel, int totalGpus) {
    String model = model(gpuModel);
    List<Sample> samples = new ArrayList<>();
    for (String c : candidates) {
      Sample s = sample(c);
      if (s != null) {
        samples.add(s);
      }
    }
    List<Sample> fit = new ArrayList<>();
    for (Sample s : samples) {
      if (s.gpus() == totalGpus && (s.model() == null || matches(s.model(), model))) {
        fit.add(s);
      }
    }
    String gpuText =
        totalGpus
            + " GPU"
            + (totalGpus == 1 ? "" : "s")
            + (model == null ? "" : " (" + model + ")");
    if (fit.isEmpty()) {
      String why =
          candidates.isEmpty()
              ? "no sample dat files found in the container"
              : "no sample dat file for " + gpuText + "; write one and pass --dat FILE";
      return new Pick(null, why, candidates);
    }
    fit.sort(
        Comparator.comparingInt((Sample s) -> s.model() != null ? 0 : s.dgx() ? 2 : 1)
            .thenComparing(Sample::name)
            .thenComparing(Sample::path));
    Sample best = fit.get(0);
    String why;
    if (best.model() != null) {
      why = best.name() + " is NVIDIA's sample for " + gpuText;
    } else if (best.dgx()) {
      why =
          best.name()
              + " is NVIDIA's sample for "
              + (totalGpus / 8)
              + " DGX node(s) of 8 GPUs = "
              + totalGpus
              + " GPUs"
              + (model == null ? "" : "; no sample made for " + model);
    } else {
      why =
          best.name()
              + " is NVIDIA's generic sample for "
              + gpuText
              + (model == null ? "" : "; no sample made for " + model);
    }
    return new Pick(best.path(), why, candidates);
  }

  /**
   * The name NVIDIA gives the sample made for a GPU model and count, e.g. {@code
   * HPL-H200-16GPUs.dat}, or null when the model is unknown. For showing a plan when the container
   * cannot be asked; {@link #pick} decides at run time.
   */
  public static String expectedName(String gpuModel, int totalGpus) {
    String model = model(gpuModel);
    if (model == null || totalGpus < 1) {
      return null;
    }
    return "HPL-" + model + "-" + totalGpus + (totalGpus == 1 ? "GPU" : "GPUs") + ".dat";
  }

  static Sample sample(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    Matcher m = BY_GPUS.matcher(name);
    if (m.matches()) {
      return new Sample(path, name, m.group(1), Integer.parseInt(m.group(2)), false);
    }
    m = BY_DGX.matcher(name);
    if (m.matches()) {
      return new Sample(path, name, m.group(1), Integer.parseInt(m.group(2)) * 8, true);
    }
    return null;
  }

  /** {@code GPU 0: NVIDIA H100 80GB HBM3 (UUID: …)} → {@code H100}; null when unknown. */
  static String model(String smi) {
    if (smi == null || smi.isBlank()) {
      return null;
    }
    String text = smi.strip();
    int colon = text.indexOf(':');
    if (text.startsWith("GPU ") && colon > 0) {
      text = text.substring(colon + 1).strip();
    }
    int paren = text.indexOf('(');
    if (paren >= 0) {
      text = text.substring(0, paren);
    }
    Matcher m = SMI_MODEL.matcher(text);
    if (!m.find()) {
      return null;
    }
    String token = m.group(1).replaceFirst("(?i)^Tesla\\s+", "");
    return token.toUpperCase(Locale.ROOT);
  }

  /** Whether a sample made for {@code fileModel} suits GPU model {@code gpu}. */
  static boolean matches(String fileModel, String gpu) {
    if (gpu == null) {
      return false;
    }
    String f = fileModel.toUpperCase(Locale.ROOT);
    if (f.equals("GH") || f.equals("GB")) {
      // Grace Hopper / Grace Blackwell samples: GH200, GB200 …
      return gpu.startsWith(f);
    }
    return f.equals(gpu);
  }
}
