package dev.clusterrun.cli;

import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.SshFlags;
import dev.clusterrun.core.spec.SshSpec;
import java.nio.file.Path;
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

  /** The flags as SSH settings, for a command without a job file. */
  SshSpec explicit() {
    return explicit(null, null);
  }

  /** The SSH settings as every command resolves them: the flags over the job file's ssh section. */
  SshSpec explicit(JobSpec job, Path jobFile) {
    return new JobResolver()
        .layer(flags().layer(), Source.FLAG, "flags")
        .layer(job, Source.FILE, String.valueOf(jobFile))
        .resolveSsh()
        .explicit();
  }
}
