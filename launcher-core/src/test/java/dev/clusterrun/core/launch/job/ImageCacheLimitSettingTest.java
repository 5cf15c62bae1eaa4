package dev.clusterrun.core.launch.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clusterrun.core.BadInputException;
import dev.clusterrun.core.launch.plan.Plan;
import dev.clusterrun.core.launch.plan.PlannerTest;
import dev.clusterrun.core.spec.ByteSize;
import dev.clusterrun.core.spec.JobFlags;
import dev.clusterrun.core.spec.JobFlags.Choice;
import dev.clusterrun.core.spec.SshSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code workspace.image-cache-limit}: flag over environment over job file over the default, each
 * named by where it came from, as {@code plan} shows it; a bad value names its flag, variable or
 * file line.
 */
class ImageCacheLimitSettingTest {
  static final Choice NONE = new Choice("--yes", false, "--no", false);

  static JobFlags flag(String limit) {
    return new JobFlags(
        null, null, null, null, NONE, NONE, NONE, NONE, null, null, null, null, null, null, null,
        null, limit, null);
  }

  static ResolvedJob resolve(String flag, Map<String, String> env, String yaml) {
    return new JobResolver()
        .layer(flag(flag).toLayer(null, SshSpec.EMPTY), Source.FLAG, "flags")
        .environment(env)
        .layer(
            PyxisSettingsTest.file("container: {image: ubuntu}\n" + yaml), Source.FILE, "job.yaml")
        .resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice", PyxisSettingsTest.CWD);
  }

  @Test
  void flagOverEnvironmentOverFileOverTheDefault() {
    String file = "";
    Setting<ByteSize> none = resolve(null, Map.of(), "").imageCacheLimit();
    assertThat(none.value()).isEqualTo(new ByteSize(100L << 30));
    assertThat(none.source()).isEqualTo(Source.DEFAULT);

    ResolvedJob fromFile =
        new JobResolver()
            .layer(
                dev.clusterrun.core.spec.SpecLoader.parse(
                    "container: {image: ubuntu}\ncommand: [x]\n"
                        + "workspace:\n  path: /ws\n  image-cache-limit: 20G\n",
                    "job.yaml"),
                Source.FILE,
                "job.yaml")
            .resolve(PlannerTest.TWO_BY_EIGHT, "/home/alice", PyxisSettingsTest.CWD);
    assertThat(fromFile.imageCacheLimit())
        .isEqualTo(Setting.of(new ByteSize(20L << 30), Source.FILE, "job.yaml"));

    Map<String, String> env = Map.of(EnvironmentLayer.IMAGE_CACHE_LIMIT, "500M");
    assertThat(resolve(null, env, file).imageCacheLimit())
        .isEqualTo(
            Setting.of(
                new ByteSize(500L << 20), Source.ENVIRONMENT, "CLUSTERRUN_IMAGE_CACHE_LIMIT"));
    assertThat(resolve("1T", env, file).imageCacheLimit())
        .isEqualTo(Setting.of(new ByteSize(1L << 40), Source.FLAG, "--image-cache-limit"));
    // plan's settings table, with the value as people write it
    Plan p = PyxisSettingsTest.plan(resolve("1T", env, file));
    assertThat(p.settings())
        .filteredOn(s -> s.key().equals("workspace.image-cache-limit"))
        .singleElement()
        .isEqualTo(
            new Plan.SettingView(
                "workspace.image-cache-limit", "1T", "flag", "--image-cache-limit"));
  }

  @Test
  void aBadLimitNamesWhereItCameFrom() {
    assertThatThrownBy(() -> resolve("50 gigs", Map.of(), ""))
        .isInstanceOfSatisfying(
            BadInputException.class, e -> assertThat(e.subject()).isEqualTo("--image-cache-limit"));
    assertThatThrownBy(() -> resolve(null, Map.of(EnvironmentLayer.IMAGE_CACHE_LIMIT, "-1G"), ""))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.subject()).isEqualTo("CLUSTERRUN_IMAGE_CACHE_LIMIT");
              assertThat(e.problem()).contains("found '-1G'");
            });
    assertThatThrownBy(
            () ->
                dev.clusterrun.core.spec.SpecLoader.parse(
                    "workspace:\n  image-cache-limit: 1.5T\n", "job.yaml"))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e ->
                assertThat(e.getMessage())
                    .startsWith("job.yaml:2:22: workspace.image-cache-limit: expected a size"));
  }
}
