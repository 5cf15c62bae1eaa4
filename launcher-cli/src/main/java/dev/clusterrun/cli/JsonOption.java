package dev.clusterrun.cli;

import picocli.CommandLine.Option;

/**
 * {@code --json}: data for programs instead of text for people. Each command says what it prints
 * under its own name in {@code Help.properties} ({@code clusterrun.ps.json}).
 */
final class JsonOption {
  @Option(names = "--json")
  boolean on;
}
