package dev.clusterrun.core.setup;

import dev.clusterrun.core.Sha256;
import dev.clusterrun.core.enroot.LaunchAgentHook;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * One file clusterrun manages on a node: where it goes, what it holds, its mode (owner is always
 * root:root), and how to recognise our own earlier versions of it.
 *
 * @param label short name for reports ({@code hook}, {@code drop-in})
 * @param path absolute path on the node
 * @param content full text, ending with a newline
 * @param mode permission bits, e.g. {@code 0755}
 * @param version the header version of {@code content}
 * @param versionOf reads the header version of a file's text; empty when clusterrun did not write
 *     it
 */
public record DesiredFile(
    String label,
    String path,
    String content,
    int mode,
    int version,
    Function<String, OptionalInt> versionOf) {

  /** The launch-agent hook under {@code sysconfDir}, mode 0755 (enroot skips non-executables). */
  public static DesiredFile hook(String sysconfDir) {
    return new DesiredFile(
        "hook",
        sysconfDir + "/" + LaunchAgentHook.RELATIVE_PATH,
        LaunchAgentHook.content(),
        0755,
        LaunchAgentHook.VERSION,
        LaunchAgentHook::versionOf);
  }

  /** The enroot drop-in for {@code spec}, mode 0644. */
  public static DesiredFile dropIn(SetupSpec spec) {
    return new DesiredFile(
        "drop-in",
        spec.sysconfDir() + "/" + EnrootDropIn.RELATIVE_PATH,
        EnrootDropIn.content(spec),
        0644,
        EnrootDropIn.VERSION,
        EnrootDropIn::versionOf);
  }

  /** Both files {@code setup} installs for {@code spec}. */
  public static List<DesiredFile> forSpec(SetupSpec spec) {
    return List.of(hook(spec.sysconfDir()), dropIn(spec));
  }

  public String sha256() {
    return Sha256.hex(content);
  }

  /** The directory holding the file. */
  public String dir() {
    return path.substring(0, path.lastIndexOf('/'));
  }

  /** The file name without its directory. */
  public String fileName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
