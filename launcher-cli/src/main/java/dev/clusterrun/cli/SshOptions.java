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
  @Option(
      names = "--ssh-user",
      paramLabel = "USER",
      description = "Job user on the nodes (default: from ~/.ssh/config, else you).")
  String user;

  @Option(
      names = "--ssh-port",
      paramLabel = "PORT",
      description = "SSH port (default: from ~/.ssh/config, else 22).")
  Integer port;

  @Option(
      names = {"-i", "--identity"},
      paramLabel = "FILE",
      description = "Private key file (default: ~/.ssh/config's, the SSH agent, ~/.ssh/id_*).")
  String identity;

  @Option(
      names = "--accept-new",
      description =
          "Record the host keys of nodes not yet in known_hosts, like OpenSSH's StrictHostKeyChecking=accept-new. A changed key is always refused.")
  boolean acceptNew;

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      description = "Per-node connect timeout: 500ms, 10s, 2m (default 10s).")
  String connectTimeout;

  @Option(
      names = "--fanout",
      paramLabel = "N",
      description = "Nodes contacted at once (default 64).")
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
