package dev.clusterrun.core.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Golden files for parser tests: every {@code NAME.EXT} in a folder of {@code src/test/resources}
 * beside {@code NAME.expected.txt}. Run with {@code -Dgolden.update=true} to rewrite the expected
 * files from the current output (then review the diff).
 */
public final class Golden {
  private Golden() {}

  /** The input files of a golden folder, sorted by name. */
  public static List<Path> inputs(String folder, String ext) {
    Path dir = Path.of("src", "test", "resources", folder);
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(ext))
          .filter(p -> !p.getFileName().toString().endsWith(".expected.txt"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Expected files whose input is missing (a renamed or deleted case). */
  public static List<Path> orphans(String folder, String ext) {
    Path dir = Path.of("src", "test", "resources", folder);
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".expected.txt"))
          .filter(
              p -> {
                String n = p.getFileName().toString();
                String base = n.substring(0, n.length() - ".expected.txt".length());
                return !Files.exists(p.resolveSibling(base + ext));
              })
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Compares {@code actual} with the expected file beside {@code input}. */
  public static void check(Path input, String ext, String actual) {
    String name = input.getFileName().toString();
    Path expected =
        input.resolveSibling(name.substring(0, name.length() - ext.length()) + ".expected.txt");
    if (Boolean.getBoolean("golden.update")) {
      try {
        Files.writeString(expected, actual, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    assertThat(Files.exists(expected)).as("%s exists", expected).isTrue();
    assertThat(actual).as("output for %s", input).isEqualTo(read(expected));
  }
}
