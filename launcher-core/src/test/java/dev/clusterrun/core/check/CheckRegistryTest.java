package dev.clusterrun.core.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The registry: each check is one unit, named once, reading only facts the script gathers. */
class CheckRegistryTest {
  static final String FACTS_SH = Scripts.resource("facts.sh");

  @Test
  void everyCheckHasItsOwnIdAndADescription() {
    Set<String> ids = new HashSet<>();
    for (CheckId c : CheckId.values()) {
      assertThat(ids.add(c.id())).as("id %s registered twice", c.id()).isTrue();
      assertThat(c.id()).matches("[a-z][a-z-]*");
      assertThat(c.description()).as(c.id()).isNotBlank().doesNotEndWith(".");
      assertThat(CheckId.byId(c.id())).contains(c);
      assertThat(c.check().facts()).as("%s names the facts it reads", c.id()).isNotEmpty();
    }
  }

  @Test
  void everyFactACheckReadsIsPrintedByTheFactScript() {
    for (CheckId c : CheckId.values()) {
      for (String key : c.check().facts()) {
        assertThat(printed(key)).as("%s reads '%s'; facts.sh must print it", c.id(), key).isTrue();
      }
    }
  }

  @Test
  void aKeyTheScriptDoesNotPrintIsNoticed() {
    assertThat(printed("gpu.list")).isTrue();
    assertThat(printed("enroot.ENROOT_DATA_PATH")).isTrue();
    assertThat(printed("gpu.temperature")).isFalse();
  }

  /** The key as the script prints it: literally, or as a prefix followed by a shell variable. */
  static boolean printed(String key) {
    Matcher m = Pattern.compile("(?:cr_)?kv \"?([\\w.]+)").matcher(FACTS_SH);
    while (m.find()) {
      String k = m.group(1);
      boolean templated = FACTS_SH.startsWith("$", m.end(1));
      if (k.equals(key) || key.startsWith(k) && (templated || key.endsWith("."))) {
        return true;
      }
    }
    return FACTS_SH.contains("cr_probe " + key + " ");
  }
}
