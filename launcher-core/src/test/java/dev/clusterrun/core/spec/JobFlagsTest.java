package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.spec.JobFlags.Choice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flags' layer of a job: each flag checked by its rule and named when it is wrong. */
class JobFlagsTest {
  private static final Choice NONE = new Choice("--yes", false, "--no", false);

  private static JobFlags flags(
      String image, Choice writable, String nodeTimeout, String launcher, List<String> mounts) {
    return new JobFlags(
        image,
        null,
        mounts,
        null,
        writable,
        NONE,
        NONE,
        NONE,
        null,
        null,
        null,
        null,
        null,
        null,
        nodeTimeout,
        launcher);
  }

  @Test
  void givenFlagsMakeTheFlagsLayer() {
    JobSpec layer =
        flags(
                "./img.sqsh",
                new Choice("--container-writable", true, "--container-readonly", false),
                "45s",
                "per-node",
                List.of("/data:/data:ro,/scratch"))
            .toLayer(List.of("hostname", "-f"), SshSpec.EMPTY);
    assertThat(layer.source()).isEqualTo("flags");
    assertThat(layer.container().writable()).isTrue();
    assertThat(layer.container().mountHome()).isNull();
    assertThat(layer.container().mounts()).hasSize(2);
    assertThat(layer.mpi().nodeTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(layer.command()).containsExactly("hostname", "-f");
    assertThat(layer.launcher()).isEqualTo(LauncherKind.PER_NODE);
  }

  @Test
  void noFlagsSayNothing() {
    JobSpec layer = flags(null, NONE, null, null, null).toLayer(List.of(), SshSpec.EMPTY);
    assertThat(layer.container().image()).isNull();
    assertThat(layer.container().writable()).isNull();
    assertThat(layer.command()).isNull();
    assertThat(layer.launcher()).isNull();
  }

  @Test
  void bothSidesOfAChoiceAreBadInputNamingTheFirst() {
    assertThatThrownBy(() -> new Choice("--label", true, "--no-label", true).value())
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.subject()).isEqualTo("--label");
              assertThat(e.problem()).isEqualTo("contradicts --no-label; give only one of them");
            });
    assertThat(new Choice("--a", false, "--b", true).value()).isFalse();
  }

  @Test
  void aBadFlagIsNamed() {
    assertThatThrownBy(() -> flags(null, NONE, "0", null, null).toLayer(null, SshSpec.EMPTY))
        .isInstanceOfSatisfying(
            BadInputException.class, e -> assertThat(e.subject()).isEqualTo("--node-timeout"));
    assertThatThrownBy(() -> flags(null, NONE, null, "srun", null).toLayer(null, SshSpec.EMPTY))
        .isInstanceOfSatisfying(
            BadInputException.class, e -> assertThat(e.subject()).isEqualTo("--launcher"));
  }

  @Test
  void sshFlagsAreCheckedAndDurationsRead() {
    SshSpec s = new SshFlags("alice", 2222, null, true, "1500ms", 8).toSpec();
    assertThat(s.connectTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(s.knownHosts()).isEqualTo(SshSpec.KnownHostsPolicy.ACCEPT_NEW);
    assertThat(SshFlags.duration("--x", " 12 ")).isEqualTo(Duration.ofSeconds(12));
    assertThatThrownBy(() -> new SshFlags(null, null, null, false, "soon", null).toSpec())
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.subject()).isEqualTo("--connect-timeout");
              assertThat(e.problem()).contains("expected a duration such as 500ms");
            });
    assertThatThrownBy(() -> new SshFlags(null, 0, null, false, null, null).toSpec())
        .isInstanceOfSatisfying(
            BadInputException.class, e -> assertThat(e.subject()).isEqualTo("--ssh-port"));
  }
}
