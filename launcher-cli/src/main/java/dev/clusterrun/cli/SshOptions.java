package dev.clusterrun.cli;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.Durations;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SettingRules;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.time.Duration;
import picocli.CommandLine.Option;

/** How clusterrun reaches the nodes; flags override the job file's {@code ssh:} section. */
final class SshOptions {
  @Option(names = "--ssh-user", paramLabel = "USER")
  String user;

  @Option(names = "--ssh-port", paramLabel = "PORT")
  Integer port;

  @Option(
      names = {"-i", "--identity"},
      paramLabel = "FILE")
  String identity;

  @Option(names = "--accept-new")
  boolean acceptNew;

  @Option(names = "--connect-timeout", paramLabel = "DURATION")
  String connectTimeout;

  @Option(names = "--fanout", paramLabel = "N")
  Integer fanout;

  /** The flags as SSH settings, each checked by the same rule as the job file's. */
  SshSpec toSpec() {
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
        connectTimeout != null ? parseDuration("--connect-timeout", connectTimeout) : null,
        fanout);
  }

  /** The flags as a job layer that sets SSH settings only. */
  JobSpec layer() {
    return new JobSpec(
        null, ContainerSpec.EMPTY, WorkspaceSpec.EMPTY, MpiSpec.EMPTY, null, toSpec(), "flags");
  }

  static Duration parseDuration(String subject, String text) {
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
