package dev.clusterrun.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --workspace DIR} of the commands that read a workspace ({@code images}, {@code results},
 * {@code stop}, {@code logs} and their subcommands); else the environment's, else ~/clusterrun.
 * Each says what it reads there under its own name in {@code Help.properties} (or {@code
 * workspace}).
 */
final class WorkspaceOption {
  @Option(names = "--workspace", paramLabel = "DIR")
  Path dir;
}
