package dev.clusterrun.core.bench;

import dev.clusterrun.core.remote.ShellScript;
import java.util.ArrayList;
import java.util.List;

/**
 * What a look inside NVIDIA's HPC-Benchmarks container finds: the {@code hpl.sh} candidates, the
 * sample dat files (when asked) and the architecture.
 */
public record HplProbe(List<String> scripts, List<String> dats, String arch) {
  private static final ShellScript SCRIPT = ShellScript.load(HplProbe.class, "hpl-probe.sh");

  /**
   * The script run in the container ({@code hpl-probe.sh}, with {@link
   * HplScriptLocator#SEARCH_PATHS} for its patterns); {@code dats} also lists the sample dat files.
   */
  public static String script(boolean dats) {
    List<String> args = new ArrayList<>();
    args.add(dats ? "yes" : "no");
    args.addAll(HplScriptLocator.SEARCH_PATHS);
    return SCRIPT.with(args);
  }

  /** What the script printed. */
  public static HplProbe parse(String out) {
    List<String> scripts = new ArrayList<>();
    List<String> dats = new ArrayList<>();
    String arch = null;
    int section = 0;
    for (String raw : out.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.equals("@@dat")) {
        section = 1;
      } else if (line.equals("@@arch")) {
        section = 2;
      } else if (section == 0) {
        scripts.add(line);
      } else if (section == 1) {
        dats.add(line);
      } else if (arch == null) {
        arch = line;
      }
    }
    return new HplProbe(scripts, dats, arch);
  }

  /** The sample files of this architecture's package (not {@code hpl-linux-aarch64*} on x86). */
  public List<String> datsForArch() {
    return forArch(dats, arch);
  }

  /** Drops sample files of the other architecture's package ({@code hpl-linux-aarch64*}). */
  static List<String> forArch(List<String> dats, String arch) {
    if (arch == null) {
      return dats;
    }
    List<String> out = new ArrayList<>();
    for (String d : dats) {
      int i = d.indexOf("/hpl-linux-");
      if (i < 0 || d.startsWith("/hpl-linux-" + arch, i)) {
        out.add(d);
      }
    }
    return out;
  }
}
