package dev.clusterrun.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --references FILE}: expected values per cluster, preset and size ({@code hpl}, {@code
 * bench}, {@code screen}, {@code results compare} and {@code report}). Each command says what it
 * does with them under its own name in {@code Help.properties} ({@code
 * clusterrun.screen.references}).
 */
final class ReferencesOption {
  @Option(names = "--references", paramLabel = "FILE")
  Path file;
}
