package dev.clusterrun.core.spec;

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

  public enum KnownHostsPolicy {
    /** Unknown and changed host keys are refused (OpenSSH StrictHostKeyChecking=yes). */
    STRICT("strict"),
    /** Unknown keys are added to known_hosts, changed keys refused (accept-new). */
    ACCEPT_NEW("accept-new");

    private final String yaml;

    KnownHostsPolicy(String yaml) {
      this.yaml = yaml;
    }

    public String yamlName() {
      return yaml;
    }

    public static KnownHostsPolicy fromYaml(String s) {
      for (KnownHostsPolicy p : values()) {
        if (p.yaml.equals(s)) {
          return p;
        }
      }
      throw new IllegalArgumentException("expected 'strict' or 'accept-new', got '" + s + "'");
    }
  }
}
