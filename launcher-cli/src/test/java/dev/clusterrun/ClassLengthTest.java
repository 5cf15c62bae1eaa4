package dev.clusterrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No source file of launcher-core's main code is longer than {@value #LIMIT} lines, but the ones
 * named here (issue 26: a class a newcomer can read; the HTML report is mostly its page's text).
 */
class ClassLengthTest {
  static final int LIMIT = 500;

  static final Set<String> LONGER = Set.of("HtmlReport.java");

  @Test
  void noClassOfTheCoreIsLongerThanTheLimit() throws IOException {
    Path main = Path.of("..", "launcher-core", "src", "main", "java");
    List<String> longer;
    try (Stream<Path> files = Files.walk(main)) {
      longer =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !LONGER.contains(p.getFileName().toString()))
              .filter(p -> lines(p) > LIMIT)
              .map(p -> main.relativize(p) + ": " + lines(p) + " lines")
              .sorted()
              .toList();
    }
    assertThat(longer).as("core classes over %d lines", LIMIT).isEmpty();
  }

  private static long lines(Path p) {
    try (Stream<String> s = Files.lines(p)) {
      return s.count();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
