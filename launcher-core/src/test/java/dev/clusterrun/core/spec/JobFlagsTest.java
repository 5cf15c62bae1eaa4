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
    return flags(image, writable, nodeTimeout, launcher, mounts, null);
  }

  private static JobFlags flags(
      String image,
      Choice writable,
      String nodeTimeout,
      String launcher,
      List<String> mounts,
      String imageCacheLimit) {
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
        launcher,
        imageCacheLimit,
        null);
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
  void theImageCacheLimitIsASizeInPowersOf1024() {
    assertThat(
            flags(null, NONE, null, null, null, "50G")
                .toLayer(null, SshSpec.EMPTY)
                .workspace()
                .imageCacheLimit())
        .isEqualTo(new ByteSize(50L << 30));
    assertThat(ByteSize.parse("500m").bytes()).isEqualTo(500L << 20);
    assertThat(ByteSize.parse("100GiB")).isEqualTo(ByteSize.parse("100GB"));
    assertThat(ByteSize.parse("1T")).hasToString("1T");
    assertThat(ByteSize.parse("1536M")).hasToString("1536M");
    assertThat(ByteSize.parse("0").bytes()).isZero();
    assertThat(ByteSize.human(13_207_024_435L)).isEqualTo("12.3G");
    assertThat(ByteSize.human(512L << 20)).isEqualTo("512M");
    assertThatThrownBy(
            () -> flags(null, NONE, null, null, null, "lots").toLayer(null, SshSpec.EMPTY))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.subject()).isEqualTo("--image-cache-limit");
              assertThat(e.problem())
                  .isEqualTo(
                      "expected a size such as 500M, 50G or 1T (powers of 1024), found 'lots'");
            });
    assertThatThrownBy(() -> ByteSize.parse("99999999999P"))
        .hasMessage("the size '99999999999P' is too large");
    assertThatThrownBy(() -> ByteSize.parse("1.5T")).hasMessageContaining("found '1.5T'");
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
