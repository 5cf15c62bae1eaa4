package dev.clusterrun.cli;

import picocli.CommandLine.Option;

/**
 * {@code --cluster NAME}: the cluster's name in the references file and the results log. Each
 * command says what it does with it under its own name in {@code Help.properties} ({@code
 * clusterrun.screen.cluster}).
 */
final class ClusterOption {
  @Option(names = "--cluster", paramLabel = "NAME")
  String name;
}
