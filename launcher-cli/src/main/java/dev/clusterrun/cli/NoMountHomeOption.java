package dev.clusterrun.cli;

import picocli.CommandLine.Option;

/**
 * {@code --no-container-mount-home}: the job's choice ({@link JobOptions}, against {@code
 * --container-mount-home}) or, for {@code setup}, the nodes' setting for jobs that do not choose.
 * Each says which under its own name in {@code Help.properties}.
 */
final class NoMountHomeOption {
  @Option(names = "--no-container-mount-home")
  boolean on;
}
