package dev.clusterrun.core.launch.job;

import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** How clusterrun reaches the nodes, resolved with every layer and each value's provenance. */
public record ResolvedSsh(
    Setting<String> user,
    Setting<Integer> port,
    Setting<String> identity,
    Setting<KnownHostsPolicy> knownHosts,
    Setting<Duration> connectTimeout,
    Setting<Integer> fanout) {

  /**
   * What the nodes are reached with: the values someone set (a flag, a variable, the job file);
   * what nobody set comes from OpenSSH's own configuration, then from clusterrun's defaults.
   */
  public SshSpec explicit() {
    return new SshSpec(
        given(user),
        given(port),
        given(identity),
        given(knownHosts),
        given(connectTimeout),
        given(fanout));
  }

  private static <T> T given(Setting<T> s) {
    return s.source() == Source.DEFAULT ? null : s.value();
  }

  /** The settings by their job-file keys, in documentation order. */
  public Map<String, Setting<?>> byKey() {
    Map<String, Setting<?>> m = new LinkedHashMap<>();
    m.put("ssh.user", user);
    m.put("ssh.port", port);
    m.put("ssh.identity", identity);
    m.put("ssh.known-hosts", knownHosts);
    m.put("ssh.connect-timeout", connectTimeout);
    m.put("ssh.fanout", fanout);
    return m;
  }
}
