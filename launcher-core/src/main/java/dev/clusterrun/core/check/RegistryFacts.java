package dev.clusterrun.core.check;

import dev.clusterrun.core.image.ImagePin;
import dev.clusterrun.core.image.RegistrySettings;
import dev.clusterrun.core.remote.ExecResult;
import dev.clusterrun.core.remote.LocalNodeShell;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The enroot settings a registry request follows, from a node's facts or the head's own. */
public final class RegistryFacts {
  private RegistryFacts() {}

  /**
   * The enroot settings a registry request follows, as the node's facts computed them for the job
   * user ({@code ENROOT_CONFIG_PATH}, {@code ENROOT_ALLOW_HTTP}; an unset one as empty, so that the
   * environment's does not come back through).
   */
  public static Map<String, String> enrootValues(Facts f) {
    Map<String, String> m = new LinkedHashMap<>();
    if (f == null || f.enroot().settings() == null) {
      return m;
    }
    for (var v : List.of(f.enroot().settings().configPath(), f.enroot().settings().allowHttp())) {
      if (v.source() != null && !v.source().isEmpty()) {
        m.put(v.name(), v.value() == null ? "" : v.value());
      }
    }
    return m;
  }

  /**
   * The registry settings of enroot on the head, for a command that asks no node ({@code plan}, or
   * a run whose head gave no facts): the fact script run here, as the user.
   */
  public static RegistrySettings headRegistrySettings() {
    try (LocalNodeShell shell = new LocalNodeShell("head")) {
      ExecResult r =
          shell.run(
              FactScript.render(FactScript.DEFAULT_SYSCONF, List.of(), null, false),
              CheckFlow.FACT_TIMEOUT);
      return ImagePin.settings(enrootValues(FactParser.parse("head", r)));
    } catch (RuntimeException e) {
      return ImagePin.settings(Map.of());
    }
  }
}
