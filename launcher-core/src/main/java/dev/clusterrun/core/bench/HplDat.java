package dev.clusterrun.core.bench;

/**
 * {@code --dat}: NVIDIA HPL's input, a local file (copied into the run directory) or {@code auto}
 * (NVIDIA's sample for the GPU model and count, picked from the files in the container).
 *
 * @param file the local file as given, or null for {@code auto}
 */
public record HplDat(String file) {
  public static final HplDat AUTO = new HplDat(null);

  /** {@code auto}, or a file. */
  public static HplDat parse(String given) {
    return given.equals("auto") ? AUTO : new HplDat(given);
  }

  public boolean auto() {
    return file == null;
  }
}
