package dev.clusterrun.core.enroot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnrootConfigTest {
  @Test
  void missingSettingsAreUnsetAndMountHomeFollowsTheValue() {
    EnrootConfig c =
        EnrootConfig.of(
            Map.of(
                "ENROOT_DATA_PATH",
                new EnrootConfigValue("ENROOT_DATA_PATH", "/shared/data", "environment", "", null),
                "ENROOT_MOUNT_HOME",
                new EnrootConfigValue(
                    "ENROOT_MOUNT_HOME", "y", "/etc/enroot/enroot.conf", "y", null)));
    assertThat(c.dataPath().isSet()).isTrue();
    assertThat(c.runtimePath().isSet()).isFalse();
    assertThat(c.runtimePath().name()).isEqualTo("ENROOT_RUNTIME_PATH");
    assertThat(c.mountHomeOn()).isTrue();
    assertThat(c.all())
        .extracting(EnrootConfigValue::name)
        .containsExactlyElementsOf(EnrootConfig.NAMES);
  }
}
