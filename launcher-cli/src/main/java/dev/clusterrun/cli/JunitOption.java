package dev.clusterrun.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --junit FILE}: a JUnit XML report of the result. Each command says what it writes under
 * its own name in {@code Help.properties} ({@code clusterrun.screen.junit}, else {@code junit}).
 */
final class JunitOption {
  @Option(names = "--junit", paramLabel = "FILE")
  Path file;
}
