package dev.clusterrun.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden text files of the tests: {@code NAME} beside the test class in the test resources. The
 * actual text is written to {@code target/golden/NAME} first, so a changed script can be reviewed
 * with {@code diff} and copied over the golden file when the change is meant.
 */
public final class GoldenText {
  private GoldenText() {}

  /** Fails unless {@code actual} is exactly the golden file {@code name} beside {@code anchor}. */
  public static void assertMatches(String actual, Class<?> anchor, String name) {
    try {
      Path out = Path.of("target", "golden", name);
      Files.createDirectories(out.getParent());
      Files.writeString(out, actual, StandardCharsets.UTF_8);
      String golden;
      try (InputStream in = anchor.getResourceAsStream(name)) {
        assertThat(in).as("golden file %s beside %s (actual in %s)", name, anchor, out).isNotNull();
        golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(actual).as("(actual written to %s)", out.toAbsolutePath()).isEqualTo(golden);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
