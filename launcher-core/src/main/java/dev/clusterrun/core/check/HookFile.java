package dev.clusterrun.core.check;

/**
 * One file in a {@code hooks.d} directory.
 *
 * @param scope {@code system} (ENROOT_SYSCONF_PATH/hooks.d) or {@code user}
 *     (ENROOT_CONFIG_PATH/hooks.d)
 * @param mode octal permission bits as {@code stat %a} prints them, e.g. {@code 755}
 * @param uid owner uid
 * @param owner owner name
 * @param type file type as {@code stat %F} prints it
 * @param executable whether the job user may execute it ({@code test -x})
 * @param version the number in clusterrun's hook header, or {@code null}
 */
public record HookFile(
    String scope,
    String path,
    String mode,
    Integer uid,
    String owner,
    String type,
    boolean executable,
    String sha256,
    Integer version) {
  public String fileName() {
    int slash = path.lastIndexOf('/');
    return slash >= 0 ? path.substring(slash + 1) : path;
  }

  /** Permission bits, or -1 when unknown. */
  public int modeBits() {
    try {
      return Integer.parseInt(mode, 8);
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
