package dev.clusterrun.cli;

import dev.clusterrun.core.spec.SshFlags;
import dev.clusterrun.core.spec.SshSpec;
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

  /** The flags as given; the core checks them and makes them SSH settings. */
  SshFlags flags() {
    return new SshFlags(user, port, identity, acceptNew, connectTimeout, fanout);
  }

  /** The flags as SSH settings (each checked), for a command without a job file. */
  SshSpec settings() {
    return flags().toSpec();
  }
}
