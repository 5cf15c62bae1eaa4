package dev.clusterrun.cli;

import picocli.CommandLine.Option;

/**
 * {@code --dry-run}: say what would be done, do nothing. Each command says what it shows under its
 * own name in {@code Help.properties} ({@code clusterrun.setup.dry-run}).
 */
final class DryRunOption {
  @Option(names = "--dry-run")
  boolean on;
}
