package dev.clusterrun.core.check;

/**
 * What {@code clusterrun setup} installs, as the checks expect to find it. Given by the caller so
 * the checks do not depend on the setup code.
 *
 * @param sysconfDir enroot's system configuration directory ({@code /etc/enroot})
 * @param hookFileName the hook's file name in {@code hooks.d}
 * @param hookVersion the version in the hook's header line ({@code # clusterrun-launch-agent-hook
 *     version N})
 * @param hookSha256 the hook's expected checksum, or {@code null} to check the version only
 * @param dropInFileName the drop-in's file name in {@code enroot.conf.d}
 * @param dropInSha256 the drop-in's expected checksum, or {@code null} to check presence only
 */
public record ExpectedSetup(
    String sysconfDir,
    String hookFileName,
    int hookVersion,
    String hookSha256,
    String dropInFileName,
    String dropInSha256) {
  public static final String HOOK_FILE_NAME = "50-clusterrun-launch-agent.sh";
  public static final String DROP_IN_FILE_NAME = "50-clusterrun.conf";

  /** The standard names under {@code /etc/enroot}, checking the hook version only. */
  public static ExpectedSetup standard(int hookVersion) {
    return new ExpectedSetup(
        FactScript.DEFAULT_SYSCONF, HOOK_FILE_NAME, hookVersion, null, DROP_IN_FILE_NAME, null);
  }

  public String hookPath() {
    return sysconfDir + "/hooks.d/" + hookFileName;
  }

  public String dropInPath() {
    return sysconfDir + "/enroot.conf.d/" + dropInFileName;
  }
}
