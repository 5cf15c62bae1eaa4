package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clusterrun.core.WorkspaceDir;
import dev.clusterrun.core.cluster.Hostfile;
import dev.clusterrun.core.launch.job.JobResolver;
import dev.clusterrun.core.launch.job.Source;
import dev.clusterrun.core.spec.ContainerSpec;
import dev.clusterrun.core.spec.JobSpec;
import dev.clusterrun.core.spec.MpiSpec;
import dev.clusterrun.core.spec.SpecLoader;
import dev.clusterrun.core.spec.SshFlags;
import dev.clusterrun.core.spec.SshSpec;
import dev.clusterrun.core.spec.SshSpec.KnownHostsPolicy;
import dev.clusterrun.core.spec.WorkspaceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckRequestTest {
  @TempDir Path dir;

  static final Hostfile NODES = new Hostfile("hosts.txt", List.of(), "--nodes");

  static final SshFlags BOB = new SshFlags("bob", null, null, true, null, null);

  Path jobFile() throws Exception {
    return Files.writeString(
        dir.resolve("job.yaml"),
        "container:\n  name: train\n  image: nvcr.io#nvidia/pytorch:24.01-py3\n"
            + "ssh:\n  user: alice\n  port: 2222\n  connect-timeout: 5s\n  fanout: 8\n");
  }

  @Test
  void theSshFlagsGoOverTheJobFilesSshSectionAndTheChecksSeeItsContainer() throws Exception {
    CheckRequest rq = CheckRequest.of(NODES, BOB, jobFile(), null);
    assertThat(rq.ssh())
        .isEqualTo(
            new SshSpec("bob", 2222, null, KnownHostsPolicy.ACCEPT_NEW, Duration.ofSeconds(5), 8));
    assertThat(rq.job().containerName()).isEqualTo("train");
    assertThat(rq.selection()).isEqualTo(CheckSelection.all());
  }

  @Test
  void theSshSettingsAreThoseARunResolvesFromTheFlagsAndTheFile() throws Exception {
    Path file = jobFile();
    JobSpec flags =
        new JobSpec(
            null, ContainerSpec.EMPTY, WorkspaceSpec.EMPTY, MpiSpec.EMPTY, null, BOB.toSpec(), "x");
    SshSpec resolved =
        new JobResolver()
            .layer(flags, Source.FLAG, "flags")
            .layer(SpecLoader.load(file), Source.FILE, file.toString())
            .resolveSsh()
            .explicit();
    assertThat(CheckRequest.of(NODES, BOB, file, null).ssh()).isEqualTo(resolved);
  }

  @Test
  void withoutAJobFileTheFlagsAloneAndNoJob() {
    CheckRequest rq = CheckRequest.of(NODES, BOB, null, null);
    assertThat(rq.ssh()).isEqualTo(BOB.toSpec());
    assertThat(rq.job()).isEqualTo(CheckJob.NONE);
    // enroot's versions are remembered where a run of this user remembers them.
    assertThat(rq.workspace()).isEqualTo(new WorkspaceDir(null, System.getenv()).path());
  }

  @Test
  void aJobFilesWorkspaceIsWhereTheEnrootVersionsAreRemembered() throws Exception {
    Path file = Files.writeString(dir.resolve("ws.yaml"), "workspace:\n  path: /shared/ws\n");
    assertThat(CheckRequest.of(NODES, BOB, file, null).workspace())
        .isEqualTo(new WorkspaceDir(null, System.getenv()).path("/shared/ws"));
  }
}
