package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No method of the run path ({@code core.launch}) takes more than {@value #LIMIT} parameters: what
 * one run carries between its steps lives in one object ({@code RunAttempt}), and a launcher is
 * configured by one record. Records' constructors are values, not steps, and are not counted.
 */
class LaunchParametersTest {
  static final int LIMIT = 6;

  @Test
  void noMethodOfTheRunPathTakesMoreThanTheLimit() {
    List<String> tooMany = new ArrayList<>();
    for (JavaClass c : ArchitectureTest.CLASSES) {
      String p = c.getPackageName();
      if (!p.equals("dev.clusterrun.core.launch") && !p.startsWith("dev.clusterrun.core.launch.")) {
        continue;
      }
      for (JavaMethod m : c.getMethods()) {
        if (m.getRawParameterTypes().size() > LIMIT && !m.getName().startsWith("lambda$")) {
          tooMany.add(m.getFullName());
        }
      }
    }
    assertThat(tooMany)
        .as("methods of core.launch and its packages with more than %d parameters", LIMIT)
        .isEmpty();
  }
}
