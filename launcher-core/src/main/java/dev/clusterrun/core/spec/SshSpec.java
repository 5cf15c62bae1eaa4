package dev.clusterrun.core.spec;

import dev.clusterrun.core.EnumWords;
import java.time.Duration;

/**
 * How clusterrun reaches the nodes. Unset fields fall back to OpenSSH's own configuration ({@code
 * ~/.ssh/config}) and then to clusterrun's defaults.
 *
 * @param user job user (defaults to the user running clusterrun)
 * @param port SSH port
 * @param identity private key file
 * @param knownHosts {@code strict} (default) or {@code accept-new}
 * @param connectTimeout per-node connect timeout
 * @param fanout how many nodes are contacted at once (default 64)
 */
public record SshSpec(
    String user,
    Integer port,
    String identity,
    KnownHostsPolicy knownHosts,
    Duration connectTimeout,
    Integer fanout) {
  public static final SshSpec EMPTY = new SshSpec(null, null, null, null, null, null);

  /**
   * These settings over {@code lower}'s (a job file's {@code ssh:} section): each setting this one
   * leaves unset is {@code lower}'s.
   */
  public SshSpec over(SshSpec lower) {
    if (lower == null) {
      return this;
    }
    return new SshSpec(
        user != null ? user : lower.user,
        port != null ? port : lower.port,
        identity != null ? identity : lower.identity,
        knownHosts != null ? knownHosts : lower.knownHosts,
        connectTimeout != null ? connectTimeout : lower.connectTimeout,
        fanout != null ? fanout : lower.fanout);
  }

  public enum KnownHostsPolicy {
    /** Unknown and changed host keys are refused (OpenSSH StrictHostKeyChecking=yes). */
    STRICT,
    /** Unknown keys are added to known_hosts, changed keys refused (accept-new). */
    ACCEPT_NEW;

    /** {@code strict}, {@code accept-new}. */
    public String yamlName() {
      return EnumWords.word(this);
    }

    public static KnownHostsPolicy fromYaml(String s) {
      return EnumWords.byWord(values(), s)
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      "expected 'strict' or 'accept-new', got '" + s + "'"));
    }
  }
}
