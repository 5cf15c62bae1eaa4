package dev.clusterrun.core.spec;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import java.time.Duration;

/**
 * The SSH flags as given ({@code --ssh-user}, {@code --ssh-port}, {@code --identity}, {@code
 * --accept-new}, {@code --connect-timeout}, {@code --fanout}); null or false where not given.
 */
public record SshFlags(
    String user,
    Integer port,
    String identity,
    boolean acceptNew,
    String connectTimeout,
    Integer fanout) {

  /** The flags as SSH settings, each checked by the same rule as the job file's. */
  public SshSpec toSpec() {
    if (user != null) {
      BadInputException.about("--ssh-user", () -> SettingRules.sshUser(user));
    }
    if (port != null) {
      BadInputException.about("--ssh-port", () -> SettingRules.sshPort(port));
    }
    if (identity != null) {
      BadInputException.about("--identity", () -> SettingRules.sshIdentity(identity));
    }
    if (fanout != null) {
      BadInputException.about("--fanout", () -> SettingRules.fanout(fanout));
    }
    return new SshSpec(
        user,
        port,
        identity,
        acceptNew ? KnownHostsPolicy.ACCEPT_NEW : null,
        connectTimeout != null ? duration("--connect-timeout", connectTimeout) : null,
        fanout);
  }

  /** A duration flag: 500ms, 10s, 2m, 1h or whole seconds, greater than 0. */
  static Duration duration(String subject, String text) {
    String t = text.strip();
    Duration d = Durations.withUnit(t);
    if (d == null) {
      d = Durations.seconds(t);
    }
    if (d == null) {
      throw new BadInputException(
          subject, "expected a duration such as 500ms, 10s or 2m, got '" + text + "'");
    }
    if (d.isZero()) {
      throw new BadInputException(subject, "must be greater than 0");
    }
    return d;
  }
}
